import { z } from '@hono/zod-openapi';
import { MENU_LINK_TYPES, menus } from '../../db/schema';
import { isSafeUrl } from '../../lib/safe-url';
import { createInsertSchema, createSelectSchema, createUpdateSchema, Slug, Timestamp } from '../../lib/schemas';

/** Items per level, and in a whole menu. Menus nest three levels deep (item, child, grandchild). */
export const MAX_MENU_ITEMS_PER_LEVEL = 50;
export const MAX_MENU_ITEMS = 200;

const linkDescription =
  '`url`: `url` is an http(s) address or a path (`/sale`). `page`, `category`, `product`: `targetId` is the id or slug of one, and the ' +
  'storefront path (`/pages/{slug}`, `/categories/{slug}`, `/products/{slug}`) is filled in at read time, so it follows slug changes.';

const itemFields = {
  label: z.string().trim().min(1).max(100),
  type: z.enum(MENU_LINK_TYPES).openapi({ description: linkDescription }),
  url: z.string().trim().min(1).max(2048).optional(),
  targetId: z.string().min(1).max(200).optional(),
};

function checkLink(item: { type: string; url?: string; targetId?: string }, ctx: z.RefinementCtx) {
  if (item.type === 'url') {
    if (item.url === undefined) ctx.addIssue({ code: 'custom', path: ['url'], message: "is required for type 'url'" });
    else if (!isSafeUrl(item.url)) ctx.addIssue({ code: 'custom', path: ['url'], message: 'must be an http(s), mailto: or tel: URL, or a path' });
    if (item.targetId !== undefined) ctx.addIssue({ code: 'custom', path: ['targetId'], message: "is not allowed for type 'url'" });
  } else {
    if (item.targetId === undefined) ctx.addIssue({ code: 'custom', path: ['targetId'], message: `is required for type '${item.type}'` });
    if (item.url !== undefined) ctx.addIssue({ code: 'custom', path: ['url'], message: `is not allowed for type '${item.type}' (it is derived from the target)` });
  }
}

// Three explicit levels rather than a recursive schema, so the OpenAPI document stays plain.
const Grandchild = z.object(itemFields).strict().superRefine(checkLink);
const Child = z
  .object({ ...itemFields, children: z.array(Grandchild).max(MAX_MENU_ITEMS_PER_LEVEL).optional() })
  .strict()
  .superRefine(checkLink);
const Item = z
  .object({ ...itemFields, children: z.array(Child).max(MAX_MENU_ITEMS_PER_LEVEL).optional() })
  .strict()
  .superRefine(checkLink)
  .openapi('MenuItemInput');

const countItems = (items: { children?: unknown[] }[]): number => items.reduce((n, item) => n + 1 + countItems((item.children ?? []) as { children?: unknown[] }[]), 0);

export const MenuItemsInput = z
  .array(Item)
  .max(MAX_MENU_ITEMS_PER_LEVEL)
  .superRefine((items, ctx) => {
    if (countItems(items) > MAX_MENU_ITEMS) ctx.addIssue({ code: 'custom', message: `a menu holds at most ${MAX_MENU_ITEMS} items in all` });
  })
  .openapi({ description: `Ordered items, nested up to three levels; at most ${MAX_MENU_ITEMS_PER_LEVEL} per level and ${MAX_MENU_ITEMS} in all. Replaces every item.` });
export type MenuItemInput = z.infer<typeof Item>;

const outFields = {
  label: z.string(),
  type: z.enum(MENU_LINK_TYPES),
  url: z
    .string()
    .nullable()
    .openapi({ description: 'Where the item leads: the URL, or the storefront path of its target (null when a staff reader sees a link whose target is gone).' }),
  targetId: z.string().nullable(),
};
const GrandchildOut = z.object({ ...outFields, children: z.array(z.unknown()).openapi({ description: 'Always empty: menus nest three levels.' }) });
const ChildOut = z.object({ ...outFields, children: z.array(GrandchildOut) });
export const MenuItemSchema = z.object({ ...outFields, children: z.array(ChildOut) }).openapi('MenuItem');
export type MenuItem = z.infer<typeof MenuItemSchema>;

export const MenuSchema = createSelectSchema(menus, {
  items: z.array(MenuItemSchema).openapi({
    description: 'Public readers get only the items whose target they can see (a draft page, a product not active or a deleted target drops the item and its children).',
  }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}).openapi('Menu', { description: 'A named navigation menu (`main`, `footer`), read by the storefront by its `handle`.' });
export type Menu = z.infer<typeof MenuSchema>;

const fields = {
  name: z.string().trim().min(1).max(100),
  handle: Slug.openapi({ example: 'main', description: 'Unique; the storefront reads the menu by it.' }),
  items: MenuItemsInput,
};
const serverColumns = { id: true, createdAt: true, updatedAt: true } as const;

export const CreateMenuBody = createInsertSchema(menus, fields).omit(serverColumns).partial().required({ name: true }).strict().openapi('CreateMenu');
export const UpdateMenuBody = createUpdateSchema(menus, fields).omit(serverColumns).partial().strict().openapi('UpdateMenu');
export type CreateMenuInput = z.infer<typeof CreateMenuBody>;
export type UpdateMenuInput = z.infer<typeof UpdateMenuBody>;
