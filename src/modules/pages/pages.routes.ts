import { crudRoutes } from '../../lib/crud-routes';
import { pageListQuery } from './pages.query';
import { CreatePageBody, PageSchema, UpdatePageBody } from './pages.schemas';

const visibility = 'Without `content:read`, only published pages whose `publishedAt` has come are shown; a draft or scheduled page is 404 to such readers.';

export const pageRoutes = crudRoutes({
  path: '/pages',
  tag: 'Content',
  sdk: { group: 'pages', singular: 'Page', plural: 'Pages' },
  readPolicy: { cache: 'catalogue' },
  noun: 'page',
  nouns: 'content pages',
  schema: PageSchema,
  createBody: CreatePageBody,
  updateBody: UpdatePageBody,
  listQuery: pageListQuery,
  resource: 'content',
  slug: { field: 'slug', from: 'title' },
  notes: {
    list: `Newest published first by default. ${visibility}`,
    get: visibility,
    create:
      '`body` is Markdown; the response carries it rendered and sanitized as `bodyHtml`. A new page is a `draft` unless `status` says `published` ' +
      '(then `publishedAt` defaults to now; a future one schedules it). A slug in use is 409. Publishing emits `page.published`.',
    update:
      'Setting `status: published` publishes (emits `page.published`; `publishedAt` defaults to now), `draft` unpublishes (`page.unpublished`); ' +
      'other changes to a published page emit `page.updated`. A slug in use is 409.',
    delete: 'Deleting a published page emits `page.unpublished`.',
  },
});
