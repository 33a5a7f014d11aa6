import { z } from '@hono/zod-openapi';
import { PAGE_STATUSES, pages } from '../../db/schema';
import { createInsertSchema, createSelectSchema, createUpdateSchema, Instant, Slug, Timestamp } from '../../lib/schemas';

/** Longest Markdown body accepted, in characters. */
export const MAX_PAGE_BODY = 100_000;

export const PageSchema = createSelectSchema(pages, {
  body: z.string().openapi({ description: 'The page as Markdown, as written.' }),
  bodyHtml: z.string().openapi({
    description:
      'The body rendered to HTML and sanitized at write time: safe to insert into a page. Only common formatting, links and images ' +
      'survive; scripts, event handlers, styles and URLs other than http(s), mailto:, tel: and relative ones are removed.',
  }),
  publishedAt: Timestamp.nullable().openapi({ description: 'When the page became (or becomes) public; set to the time of publishing when not given.' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}).openapi('Page', {
  description: 'A content page. Public readers see it when `status` is `published` and `publishedAt` has come; until then it is a draft only `content:read` can see.',
});
export type Page = z.infer<typeof PageSchema>;

const fields = {
  title: z.string().trim().min(1).max(200),
  slug: Slug,
  body: z
    .string()
    .max(MAX_PAGE_BODY)
    .openapi({ description: `Markdown (GitHub-flavoured), at most ${MAX_PAGE_BODY} characters. Raw HTML is allowed and sanitized.` }),
  status: z.enum(PAGE_STATUSES),
  seoTitle: z.string().trim().max(200).nullable(),
  seoDescription: z.string().trim().max(500).nullable(),
  publishedAt: Instant.nullable().openapi({ description: 'A future time schedules a published page; omitted when publishing, the time of publishing.' }),
};
const serverColumns = { id: true, bodyHtml: true, createdAt: true, updatedAt: true } as const;

export const CreatePageBody = createInsertSchema(pages, fields).omit(serverColumns).partial().required({ title: true }).strict().openapi('CreatePage');
// Overrides given as schemas replace drizzle-zod's optional update columns, hence `.partial()`.
export const UpdatePageBody = createUpdateSchema(pages, fields).omit(serverColumns).partial().strict().openapi('UpdatePage');
export type CreatePageInput = z.infer<typeof CreatePageBody>;
export type UpdatePageInput = z.infer<typeof UpdatePageBody>;
