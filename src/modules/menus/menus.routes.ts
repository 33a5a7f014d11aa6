import { crudRoutes } from '../../lib/crud-routes';
import { menuListQuery } from './menus.query';
import { CreateMenuBody, MenuSchema, UpdateMenuBody } from './menus.schemas';

const publicView =
  'Public: anyone may read menus. Readers without `content:read` get only the items whose target they may see (a draft page, a product ' +
  'that is not active, or a deleted target drops the item and its children); staff see every item, with `url: null` for a target that is gone.';

export const menuRoutes = crudRoutes({
  path: '/menus',
  tag: 'Content',
  sdk: { group: 'menus', singular: 'Menu', plural: 'Menus' },
  readPolicy: { cache: 'catalogue' },
  noun: 'menu',
  nouns: 'navigation menus',
  schema: MenuSchema,
  createBody: CreateMenuBody,
  updateBody: UpdateMenuBody,
  listQuery: menuListQuery,
  resource: 'content',
  slug: { field: 'handle', from: 'name' },
  notes: {
    list: publicView,
    get: `The storefront reads a menu by its handle (\`/api/menus/main\`). ${publicView}`,
    create: 'A handle in use is 409. Items link to a URL or to a page, category or product by id or slug (stored by id; 422 naming each target not found).',
    update: '`items`, when given, replaces every item. A handle in use is 409.',
  },
});
