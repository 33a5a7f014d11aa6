import { PAGE_STATUSES, pages } from '../../db/schema';
import { createdAfterFilter, createdBeforeFilter, defineListQuery, enumFilter, fieldTreeFromSchema, searchFilter } from '../../lib/query';
import { PageSchema } from './pages.schemas';

export const pageListQuery = defineListQuery({
  resource: 'page',
  id: pages.id,
  sortable: { publishedAt: pages.publishedAt, title: pages.title, createdAt: pages.createdAt, updatedAt: pages.updatedAt, id: pages.id },
  defaultSort: [{ field: 'publishedAt', direction: 'desc' }],
  selectable: fieldTreeFromSchema(PageSchema),
  filters: {
    q: searchFilter([pages.title, pages.slug], 'Search in title and slug, case-insensitive.'),
    status: enumFilter(pages.status, PAGE_STATUSES, 'Status (public readers only ever see `published`).'),
    published_after: createdAfterFilter(pages.publishedAt, 'Published on or after this day (YYYY-MM-DD, UTC), inclusive.'),
    published_before: createdBeforeFilter(pages.publishedAt, 'Published before this day (YYYY-MM-DD, UTC); the day itself is excluded.'),
    created_after: createdAfterFilter(pages.createdAt),
    created_before: createdBeforeFilter(pages.createdAt),
  },
});
