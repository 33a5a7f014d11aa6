import { crudRoutes } from '../../lib/crud-routes';
import { brandListQuery } from './brands.query';
import { BrandSchema, CreateBrandBody, UpdateBrandBody } from './brands.schemas';

export const brandRoutes = crudRoutes({
  path: '/brands',
  tag: 'Brands',
  sdk: { group: 'brands', singular: 'Brand', plural: 'Brands' },
  readPolicy: { cache: 'catalogue' },
  noun: 'brand',
  nouns: 'brands',
  schema: BrandSchema,
  createBody: CreateBrandBody,
  updateBody: UpdateBrandBody,
  listQuery: brandListQuery,
  resource: 'brands',
  notes: { delete: "The brand's products stay, without a brand." },
});
