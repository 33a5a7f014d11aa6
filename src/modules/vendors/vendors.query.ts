import { VENDOR_STATUSES, vendors } from '../../db/schema';
import { defineListQuery, enumFilter, fieldTreeFromSchema, searchFilter } from '../../lib/query';
import { VendorSchema } from './vendors.schemas';

export const vendorListQuery = defineListQuery({
  resource: 'vendor',
  id: vendors.id,
  sortable: { name: vendors.name, createdAt: vendors.createdAt, updatedAt: vendors.updatedAt, id: vendors.id },
  defaultSort: [{ field: 'name', direction: 'asc' }],
  selectable: fieldTreeFromSchema(VendorSchema),
  filters: {
    status: enumFilter(vendors.status, VENDOR_STATUSES, 'Vendor status.'),
    q: searchFilter([vendors.name, vendors.slug, vendors.email], 'Search in name, slug and email, case-insensitive.'),
  },
});
