import { menus } from '../../db/schema';
import { defineListQuery, fieldTreeFromSchema, searchFilter } from '../../lib/query';
import { MenuSchema } from './menus.schemas';

export const menuListQuery = defineListQuery({
  resource: 'menu',
  id: menus.id,
  sortable: { name: menus.name, createdAt: menus.createdAt, updatedAt: menus.updatedAt, id: menus.id },
  defaultSort: [{ field: 'name', direction: 'asc' }],
  selectable: fieldTreeFromSchema(MenuSchema),
  filters: { q: searchFilter([menus.name, menus.handle], 'Search in name and handle, case-insensitive.') },
});
