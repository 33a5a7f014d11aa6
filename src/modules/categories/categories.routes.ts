import { crudRoutes } from '../../lib/crud-routes';
import { categoryListQuery } from './categories.query';
import { CategorySchema, CreateCategoryBody, UpdateCategoryBody } from './categories.schemas';

export const categoryRoutes = crudRoutes({
  path: '/categories',
  tag: 'Categories',
  sdk: { group: 'categories', singular: 'Category', plural: 'Categories' },
  readPolicy: { cache: 'catalogue' },
  noun: 'category',
  nouns: 'categories',
  schema: CategorySchema,
  createBody: CreateCategoryBody,
  updateBody: UpdateCategoryBody,
  listQuery: categoryListQuery,
  resource: 'categories',
  notes: {
    list: 'Categories form a tree: filter with `parent=root` for the top level, `parent=<id or slug>` for children.',
    delete: 'A category with sub-categories is 409; products in it simply leave it.',
  },
});
