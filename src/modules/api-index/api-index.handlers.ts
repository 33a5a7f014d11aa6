import type { AppRouteHandler } from '../../lib/openapi';
import { API_VERSION } from '../../middleware/api-version';
import { requestVersion } from '../../middleware/store-version';
import { LATEST_VERSION, VERSIONS } from '../../versions/versions';
import type { apiIndex } from './api-index.routes';

/** The main resources a client starts from (sub-resources are found from these, and in the OpenAPI document). */
const COLLECTIONS = [
  'products',
  'categories',
  'brands',
  'pages',
  'menus',
  'banners',
  'carts',
  'orders',
  'payments',
  'customers',
  'inventory',
  'coupons',
  'vendors',
  'users',
  'roles',
  'webhooks',
  'settings',
  'audit-log',
  'notifications',
] as const;

const camelCase = (name: string) => name.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());

const INDEX = {
  name: 'Store API',
  version: API_VERSION,
  versions: VERSIONS.map(({ version, summary }) => ({ version, summary })),
  latestVersion: LATEST_VERSION,
  links: { self: '/api', docs: '/docs', openapi: '/api/openapi.json', health: '/api/health' },
  collections: Object.fromEntries(COLLECTIONS.map((name) => [camelCase(name), `/api/${name}`])),
};

export const getApiIndex: AppRouteHandler<typeof apiIndex> = async (c) => {
  const [settings, storeVersion] = await Promise.all([c.var.edgeSettings!(), requestVersion(c)]);
  return c.json({ success: true as const, data: { ...INDEX, store: { name: settings.storeName }, defaultVersion: settings.apiVersion, storeVersion }, message: 'OK' }, 200);
};
