import { crudRoutes } from '../../lib/crud-routes';
import { bannerListQuery } from './banners.query';
import { BannerSchema, CreateBannerBody, UpdateBannerBody } from './banners.schemas';

const publicView = 'Readers without `content:read` see only `live` banners (active, `startsAt <= now < endsAt`); any other is 404 to them.';

export const bannerRoutes = crudRoutes({
  path: '/banners',
  tag: 'Content',
  sdk: { group: 'banners', singular: 'Banner', plural: 'Banners' },
  readPolicy: { cache: 'catalogue' },
  noun: 'banner',
  nouns: 'storefront banners',
  schema: BannerSchema,
  createBody: CreateBannerBody,
  updateBody: UpdateBannerBody,
  listQuery: bannerListQuery,
  resource: 'content',
  slug: null,
  notes: {
    list: `By placement, then position. The storefront asks for one placement: \`?placement=home-hero\`. ${publicView}`,
    get: publicView,
    create: '`endsAt` must be after `startsAt` (422).',
    update: '`endsAt` must be after `startsAt`, as they will be stored (422).',
  },
});
