import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../env';
import { FIELDS_SELECTION_EXTENSION } from '../lib/query/list-query';
import { registerEventWebhooks } from './openapi-webhooks';
import { openApiDocument } from './openapi-document';
import { LATEST_VERSION } from '../versions/versions';

/** `/api/openapi.json` over every route of `app`, with the security schemes and the events it sends. */
export async function documentApp(app: OpenAPIHono<AppEnv>) {
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key (`sk_...`) or, for user operations, a JWT.',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'publishableKey', {
    type: 'http',
    scheme: 'bearer',
    description:
      'A publishable key (`pk_...`, `Authorization: Bearer pk_...`): safe in a web page, it can do what a shopper without an account can, only from the web origins it lists (403 from another), and is counted per shopper network. A signed-in shopper sends its own token instead.',
  });
  await registerEventWebhooks(app);
  app.get(
    '/api/openapi.json',
    openApiDocument(app, (origin) => ({
      openapi: '3.1.0',
      info: {
        title: 'Store API',
        version: LATEST_VERSION,
        description: OPENAPI_DESCRIPTION,
      },
      servers: [{ url: origin, description: 'This server' }],
      tags: OPENAPI_TAGS,
    })),
  );
}

/** What the API is and what every operation shares; the whole contract is docs/api.md, never repeated here. */
const OPENAPI_DESCRIPTION = `The JSON REST API of an online store: catalogue, carts and checkout, orders, payments, shipments, customers, content and webhooks. Every path is under \`/api/\` (\`/api/v1/\` is the same API).

- **Envelope.** \`{ success: true, data, message }\`; a list adds \`pagination\`. A failure is \`{ success: false, error: { code, message, details } }\` with a \`code\` and \`details\` as the Error schema of this document's version says. Amounts are numbers in the currency's major unit (\`19.99\`).
- **Versions.** This document is of the version in \`info.version\`. A request is answered in the version its \`Store-Version: <date>\` header names, else the one its API key is pinned to, else the store's default; every answer says which in \`Store-Version\`. \`GET /api\` lists the versions; \`/api/openapi.json?version=<date>\` is the document of another (docs/versioning.md).
- **Lists.** \`page\`, \`limit\` (20 by default, at most 100), \`sort=field:direction,...\`, \`fields=\` (operations that take it carry \`${FIELDS_SELECTION_EXTENSION}: true\`), the list's own filters, and \`format=csv\` for every match; an unknown parameter is 400.
- **Authentication.** \`Authorization: Bearer\` with an API key (\`sk_...\`), a user token (JWT) or, in a web page, a publishable key (\`pk_...\`). Each operation's \`security\` says what it takes: \`[{ bearerAuth: [] }]\` needs a credential; \`{}\` next to it means the credential is optional, and \`{ publishableKey: [] }\` that a publishable key works there; \`[]\` means it reads none.
- **Route policy.** Every operation carries \`x-rate-limited\` (counted against the hourly limit; 429 is listed where it is), \`x-cache\` (\`catalogue\`: kept by catalogue version, with an ETag), \`x-max-body-bytes\` (this server's limit) and, where it takes an \`Idempotency-Key\`, \`x-idempotency\` (\`scope\`: the headers a replay must repeat).

Errors, permissions, rate limits, caching, idempotency, orders and the rest of the contract: see docs/api.md in the repository; events and their signatures: docs/webhooks.md.`;

/** The document's tags, one per group of operations, in the order the documentation shows them. */
const OPENAPI_TAGS = [
  { name: 'Health', description: 'The API index of links and the health check: public, and never rate limited.' },
  { name: 'Authentication', description: 'Sign-up, sign-in, the signed-in user, password changes and resets, and the one-time bootstrap of the first admin.' },
  { name: 'Products', description: 'The catalogue: products and their variants. Reads are public (active products only); writes need `products:write`.' },
  { name: 'Categories', description: 'The category tree. Reads are public; writes need `categories:write`.' },
  { name: 'Brands', description: 'Brands of products. Reads are public; writes need `brands:write`.' },
  { name: 'Carts', description: 'Guest and customer carts, priced on every answer, and checkout into an order.' },
  { name: 'Orders', description: 'Orders placed by checkout or by staff, their status and cancellation.' },
  { name: 'Payments', description: 'Payments of orders and refunds of payments.' },
  { name: 'Shipments', description: 'Shipments of orders, their tracking and status.' },
  { name: 'Returns', description: "Returns of an order's lines: requested, approved, received (restocking) and refunded." },
  { name: 'Inventory', description: 'Stock per variant and its history of adjustments.' },
  { name: 'Coupons', description: 'Discount codes and their rules.' },
  {
    name: 'Promotions',
    description:
      'Money off carts and orders, automatic or by code: a percentage or fixed amount off the order or its matching items, buy X get Y, free shipping; with conditions, priority and combination rules (docs/promotions.md). Needs `coupons:read` / `coupons:write`.',
  },
  { name: 'Gift cards', description: 'Cards issued by staff or bought, spent as a payment at checkout; their codes are shown once (docs/gift-cards.md).' },
  { name: 'Customers', description: 'Customer accounts and their addresses (also as `me` for the signed-in customer).' },
  {
    name: 'Customer groups',
    description: 'Sets of customers (wholesale, VIP) that price lists and promotions are for; a customer may be in several. Needs `customers:read` / `customers:write`.',
  },
  {
    name: 'Price lists',
    description:
      'Prices of variants per currency for a customer group or every signed-in customer, with start and end and quantity tiers; the lowest applicable price wins (docs/price-lists.md). Needs `products:read` / `products:write`.',
  },
  { name: 'Users', description: 'Admin and vendor users (staff).' },
  { name: 'Vendors', description: 'Vendors of a marketplace store, whose users see only their own products and orders.' },
  { name: 'Roles', description: 'Built-in and custom roles and their `resource:action` permissions.' },
  { name: 'API keys', description: 'API keys (`sk_...`) for servers and scripts, shown once when created.' },
  { name: 'Settings', description: 'The store settings: name, contact email, default currency, whether prices include tax, weight unit and low-stock threshold.' },
  { name: 'Currencies', description: 'The currencies the store sells in and their exchange rates. Reads are public (enabled currencies only).' },
  {
    name: 'Tax classes',
    description: "Kinds of goods taxed at their own rates (standard, reduced, zero and the store's own), named by a product's and a tax rate's `taxClass`. Staff only.",
  },
  { name: 'Tax rates', description: "Tax rates per tax class, country and region; a class without a rate for a place pays the standard class's rate there. Staff only." },
  {
    name: 'Shipping',
    description:
      'Shipping zones (countries, regions, postcodes, or the rest of the world) and their methods, priced flat, by weight or by subtotal. Staff only: a cart lists its own options at `/api/carts/{id}/shipping-options`.',
  },
  { name: 'Webhooks', description: 'Webhook endpoints, their signing secrets and their deliveries (see docs/webhooks.md for verifying signatures).' },
  {
    name: 'Events',
    description:
      'What the store POSTs to webhook endpoints: one entry per event kind under `webhooks`, with its body (`<Kind>Event`, its data `<Kind>EventData`) and signature headers.',
  },
  { name: 'Notifications', description: 'Email and SMS notifications sent to customers and staff, and the templates they are made from.' },
  { name: 'Content', description: 'Storefront content: pages, navigation menus and banners. Reads are public (published and live items only).' },
  { name: 'Audit log', description: 'Who changed what: every write by staff, vendor users and API keys. Read only.' },
  { name: 'Reports', description: 'Sales, best sellers and new versus returning customers over time, from daily totals the store keeps. Needs `reports:read`.' },
];
