import { crudRoutes } from '../../lib/crud-routes';
import { vendorListQuery } from './vendors.query';
import { CreateVendorBody, UpdateVendorBody, VendorSchema } from './vendors.schemas';

export const vendorRoutes = crudRoutes({
  path: '/vendors',
  tag: 'Vendors',
  sdk: { group: 'vendors', singular: 'Vendor', plural: 'Vendors' },
  noun: 'vendor',
  nouns: 'vendors',
  schema: VendorSchema,
  createBody: CreateVendorBody,
  updateBody: UpdateVendorBody,
  listQuery: vendorListQuery,
  resource: 'vendors',
  reads: 'permission',
  readsOwn: 'a vendor user reads its own vendor; any other vendor is 404 to it.',
  notes: {
    list: 'A vendor user may not list vendors (403); it reads its own at `/api/vendors/{id}`.',
    delete: '409 while the vendor still has users. Its products stay, without a vendor.',
  },
});
