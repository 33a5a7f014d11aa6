import { crudHandlers } from '../../lib/crud-handlers';
import * as service from './categories.service';

export const categoryHandlers = crudHandlers(
  {
    list: service.listCategories,
    get: service.getCategory,
    create: service.createCategory,
    update: service.updateCategory,
    remove: service.deleteCategory,
  },
  { path: '/categories', noun: 'category' },
);
