import { crudHandlers } from '../../lib/crud-handlers';
import * as service from './menus.service';

export const menuHandlers = crudHandlers(
  {
    list: service.listMenus,
    get: service.getMenu,
    create: service.createMenu,
    update: service.updateMenu,
    remove: service.deleteMenu,
  },
  { path: '/menus', noun: 'menu' },
);
