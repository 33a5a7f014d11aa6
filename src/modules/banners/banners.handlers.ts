import { crudHandlers } from '../../lib/crud-handlers';
import * as service from './banners.service';

export const bannerHandlers = crudHandlers(
  {
    list: service.listBanners,
    get: service.getBanner,
    create: service.createBanner,
    update: service.updateBanner,
    remove: service.deleteBanner,
  },
  { path: '/banners', noun: 'banner' },
);
