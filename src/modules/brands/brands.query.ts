import { brands } from '../../db/schema';
import { defineListQuery, fieldTreeFromSchema, searchFilter } from '../../lib/query';
import { BrandSchema } from './brands.schemas';

export const brandListQuery = defineListQuery({
  resource: 'brand',
  id: brands.id,
  sortable: { name: brands.name, createdAt: brands.createdAt, updatedAt: brands.updatedAt, id: brands.id },
  defaultSort: [{ field: 'name', direction: 'asc' }],
  selectable: fieldTreeFromSchema(BrandSchema),
  filters: { q: searchFilter([brands.name, brands.slug], 'Search in name and slug, case-insensitive.') },
});
