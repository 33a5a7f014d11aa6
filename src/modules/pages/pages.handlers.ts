import { crudHandlers } from '../../lib/crud-handlers';
import * as service from './pages.service';

export const pageHandlers = crudHandlers(
  {
    list: service.listPages,
    get: service.getPage,
    create: service.createPage,
    update: service.updatePage,
    remove: service.deletePage,
  },
  { path: '/pages', noun: 'page' },
);
