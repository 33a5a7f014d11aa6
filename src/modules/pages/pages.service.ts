import { and, eq, lte, or, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type PageRow, pages } from '../../db/schema';
import { withUniqueConflicts } from '../../lib/db-errors';
import { ApiError } from '../../lib/errors';
import { type EventType, outboxEvent } from '../../lib/events';
import { ID_PREFIX, newId } from '../../lib/ids';
import { renderMarkdown } from '../../lib/markdown';
import { listTable, type ParsedListQuery } from '../../lib/query';
import { uniqueSlug } from '../../lib/slug';
import { isStaff, type Principal } from '../../lib/access';
import { pageListQuery } from './pages.query';
import type { CreatePageInput, Page, UpdatePageInput } from './pages.schemas';

const UNIQUE_FIELDS = { 'pages.slug': 'slug' };

/** Drafts and scheduled pages are for `content:read`; everyone else sees what is published by now. */
function visibleTo(principal: Principal, now: Date): SQL | undefined {
  if (isStaff(principal, 'content')) return undefined;
  return and(eq(pages.status, 'published'), lte(pages.publishedAt, now.toISOString()));
}

export function listPages(db: Database, query: ParsedListQuery<typeof pageListQuery.filters>, principal: Principal, now = new Date()) {
  return listTable<Page, typeof pageListQuery.filters>(db, pages, pageListQuery, query, [visibleTo(principal, now)]);
}

async function findPage(db: Database, idOrSlug: string, condition?: SQL): Promise<PageRow> {
  const [row] = await db
    .select()
    .from(pages)
    .where(and(or(eq(pages.id, idOrSlug), eq(pages.slug, idOrSlug)), condition))
    .limit(1);
  // A draft answers 404 to those who may not see it, as if it did not exist.
  if (!row) throw ApiError.notFound('Page', idOrSlug);
  return row;
}

export function getPage(db: Database, idOrSlug: string, principal: Principal, now = new Date()): Promise<Page> {
  return findPage(db, idOrSlug, visibleTo(principal, now));
}

/** What the storefront would want to hear: a page appearing, changing while public, or going away. */
function pageEvent(before: PageRow | null, after: PageRow | null): Extract<EventType, `page.${string}`> | null {
  const was = before !== null && before.status === 'published';
  const is = after !== null && after.status === 'published';
  if (!was && is) return 'page.published';
  if (was && !is) return 'page.unpublished';
  if (was && is) return 'page.updated';
  return null;
}

const eventData = (page: PageRow) => ({ pageId: page.id, slug: page.slug, title: page.title, status: page.status, publishedAt: page.publishedAt });

/** Publishing without a date publishes now; a published page keeps its date unless given another. */
function publishedAtFor(status: PageRow['status'], given: string | null | undefined, current: string | null, now: Date): string | null {
  if (given !== undefined) return given ?? (status === 'published' ? now.toISOString() : null);
  if (status === 'published') return current ?? now.toISOString();
  return current;
}

export async function createPage(db: Database, input: CreatePageInput, now = new Date()): Promise<Page> {
  const ts = now.toISOString();
  const status = input.status ?? 'draft';
  const body = input.body ?? '';
  const row: PageRow = {
    id: newId(ID_PREFIX.page, now.getTime()),
    title: input.title,
    slug: input.slug ?? (await uniqueSlug(db, pages, pages.slug, input.title)),
    body,
    bodyHtml: await renderMarkdown(body),
    status,
    seoTitle: input.seoTitle ?? null,
    seoDescription: input.seoDescription ?? null,
    publishedAt: publishedAtFor(status, input.publishedAt, null, now),
    createdAt: ts,
    updatedAt: ts,
  };
  const event = pageEvent(null, row);
  await withUniqueConflicts(UNIQUE_FIELDS, () => db.batch([db.insert(pages).values(row), ...(event ? [outboxEvent(db, event, eventData(row), now)] : [])]));
  return row;
}

export async function updatePage(db: Database, idOrSlug: string, patch: UpdatePageInput, now = new Date()): Promise<Page> {
  const current = await findPage(db, idOrSlug);
  if (Object.keys(patch).length === 0) return current;
  const status = patch.status ?? current.status;
  const set: Partial<PageRow> = {
    ...patch,
    ...(patch.body !== undefined ? { bodyHtml: await renderMarkdown(patch.body) } : {}),
    publishedAt: publishedAtFor(status, patch.publishedAt, current.publishedAt, now),
    updatedAt: now.toISOString(),
  };
  const updated: PageRow = { ...current, ...set };
  const event = pageEvent(current, updated);
  await withUniqueConflicts(UNIQUE_FIELDS, () =>
    db.batch([db.update(pages).set(set).where(eq(pages.id, current.id)), ...(event ? [outboxEvent(db, event, eventData(updated), now)] : [])]),
  );
  return updated;
}

export async function deletePage(db: Database, idOrSlug: string, now = new Date()): Promise<void> {
  const current = await findPage(db, idOrSlug);
  const event = pageEvent(current, null);
  await db.batch([db.delete(pages).where(eq(pages.id, current.id)), ...(event ? [outboxEvent(db, event, eventData(current), now)] : [])]);
}
