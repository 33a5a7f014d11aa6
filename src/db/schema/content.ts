import { sql } from 'drizzle-orm';
import { timestamps } from './columns';
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Content management: pages, navigation menus and storefront banners (issue 8). Same conventions
 * as ./index.ts: prefixed time-ordered text ids, ISO 8601 UTC text timestamps, JSON as text.
 */

export const PAGE_STATUSES = ['draft', 'published'] as const;
export type PageStatus = (typeof PAGE_STATUSES)[number];

/**
 * A content page. `body` is the Markdown the editor wrote; `bodyHtml` is its sanitized rendering,
 * made once at write time so reads cost nothing. A page is public when it is `published` and its
 * `publishedAt` has come (a future `publishedAt` schedules it).
 */
export const pages = sqliteTable(
  'pages',
  {
    id: text('id').primaryKey(),
    title: text('title').notNull(),
    slug: text('slug').notNull().unique(),
    body: text('body').notNull().default(''),
    bodyHtml: text('body_html').notNull().default(''),
    status: text('status', { enum: PAGE_STATUSES }).notNull().default('draft'),
    seoTitle: text('seo_title'),
    seoDescription: text('seo_description'),
    publishedAt: text('published_at'),
    ...timestamps,
  },
  (t) => [
    // The public list: status = 'published' AND published_at <= now, newest first.
    index('pages_status_published_idx').on(t.status, t.publishedAt, t.id),
    index('pages_created_idx').on(t.createdAt, t.id),
    index('pages_updated_idx').on(t.updatedAt, t.id),
    index('pages_title_idx').on(t.title, t.id),
  ],
);

export const MENU_LINK_TYPES = ['url', 'page', 'category', 'product'] as const;
export type MenuLinkType = (typeof MENU_LINK_TYPES)[number];

/** One entry of a menu as stored: a URL, or a link to a page, category or product by id. */
export interface StoredMenuItem {
  label: string;
  type: MenuLinkType;
  url: string | null;
  targetId: string | null;
  children: StoredMenuItem[];
}

/**
 * A named navigation menu (`main`, `footer`): its ordered, nested items are one JSON tree, written
 * and read whole, so reordering is one update and a read is one row (links resolved at read time).
 */
export const menus = sqliteTable(
  'menus',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    handle: text('handle').notNull().unique(),
    items: text('items', { mode: 'json' }).$type<StoredMenuItem[]>().notNull().default(sql`'[]'`),
    ...timestamps,
  },
  (t) => [index('menus_name_idx').on(t.name, t.id)],
);

/**
 * A storefront promotion shown in a `placement` (`home-hero`, `sidebar`) while it is `active` and
 * `startsAt <= now < endsAt` (either bound may be open).
 */
export const banners = sqliteTable(
  'banners',
  {
    id: text('id').primaryKey(),
    title: text('title').notNull(),
    imageUrl: text('image_url').notNull(),
    linkUrl: text('link_url'),
    altText: text('alt_text'),
    placement: text('placement').notNull(),
    position: integer('position').notNull().default(0),
    startsAt: text('starts_at'),
    endsAt: text('ends_at'),
    active: integer('active', { mode: 'boolean' }).notNull().default(true),
    ...timestamps,
  },
  (t) => [index('banners_placement_idx').on(t.placement, t.position, t.id), index('banners_created_idx').on(t.createdAt, t.id)],
);

export type PageRow = typeof pages.$inferSelect;
export type MenuRow = typeof menus.$inferSelect;
export type BannerRow = typeof banners.$inferSelect;
