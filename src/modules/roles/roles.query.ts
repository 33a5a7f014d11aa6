import { roles } from '../../db/schema';
import { defineListQuery, fieldTreeFromSchema, searchFilter } from '../../lib/query';
import { RoleSchema } from './roles.schemas';

export const roleListQuery = defineListQuery({
  resource: 'role',
  id: roles.id,
  sortable: { name: roles.name, createdAt: roles.createdAt, id: roles.id },
  defaultSort: [{ field: 'name', direction: 'asc' }],
  selectable: fieldTreeFromSchema(RoleSchema),
  filters: { q: searchFilter([roles.name, roles.description], 'Search in name and description, case-insensitive.') },
});
