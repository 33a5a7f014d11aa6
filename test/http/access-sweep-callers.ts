import { eq } from 'drizzle-orm';
import { roles } from '../../src/db/schema';
import { PERMISSION_ACTIONS, PERMISSION_RESOURCES, SPECIAL_PERMISSIONS } from '../../src/lib/permissions';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { placeTwoVendorOrder, vendorKey } from '../commerce/order-fixtures';
import { api, createProduct, db, insertUser, uid } from '../helpers';

/**
 * Every kind of caller the access sweep (access-sweep.test.ts) sends each operation: nobody, a
 * publishable key, a customer, two vendors (a user and a key each, vendor A), staff, and a key for
 * each single permission there is. `permissions` and `vendorId` are what the caller holds, read from
 * the roles as the database has them, so the sweep's expectations follow the roles' rows.
 */
export interface Caller {
  name: string;
  kind: 'anonymous' | 'publishable' | 'user' | 'api_key';
  credential?: string;
  permissions: readonly string[];
  vendorId: string | null;
  /** A key of one single permission: sent only to the operations a permission guards. */
  single?: boolean;
}

/** Vendor B's things vendor A must never see, in any list, read or export: each id or text appears in no answer to vendor A. */
export interface Markers {
  /** Ids, tried as every path parameter of every read vendor A may call. */
  ids: string[];
  /** Texts (an email, a SKU, a name) that appear only in answers about vendor B's things. */
  texts: string[];
}

const rolePermissions = async (id: string) => ((await db().select({ permissions: roles.permissions }).from(roles).where(eq(roles.id, id)))[0]?.permissions ?? []) as string[];

const everySinglePermission = (): string[] => [
  ...PERMISSION_RESOURCES.flatMap((r) => PERMISSION_ACTIONS.map((a) => `${r}:${a}`)),
  ...Object.entries(SPECIAL_PERMISSIONS).flatMap(([r, actions]) => actions.map((a) => `${r}:${a}`)),
];

/**
 * The callers, and vendor B's things: an order holding only a line of B's (paid, shipped), and a
 * draft product of B's (its variant, SKU and name), which no public read shows.
 */
export async function sweepFixture(): Promise<{ callers: Caller[]; markers: Markers; adminKey: string }> {
  const { key, vendorA, vendorB } = await placeTwoVendorOrder();
  const [vendorPermissions, customerPermissions] = await Promise.all([rolePermissions('vendor'), rolePermissions('customer')]);
  const customer = await insertUser();
  const publishable = await createApiKey(db(), { name: 'sweep storefront', type: 'publishable', allowedOrigins: ['https://sweep-shop.test'] });

  const tag = uid();
  const draft = await createProduct(key, { name: `Sweep draft ${tag}`, status: 'draft', vendorId: vendorB.vendor.id, sku: `SWEEP-B-${tag}` });
  const published = await createProduct(key, { price: 9, stock: 50, vendorId: vendorB.vendor.id });
  const email = `sweep-b-${tag}@example.test`;
  const placed = await api('/api/orders', { method: 'POST', key, json: { email, lines: [{ variantId: published.variants[0].id, quantity: 1 }] } });
  if (placed.status !== 201) throw new Error(`placing vendor B's order answered ${placed.status}: ${JSON.stringify(placed.body)}`);
  const order = placed.body.data;
  const paid = await api(`/api/orders/${order.id}/payments`, { method: 'POST', key, json: { provider: 'manual' } });
  if (paid.status !== 201) throw new Error(`paying vendor B's order answered ${paid.status}`);
  const shipment = await api(`/api/orders/${order.id}/shipments`, { method: 'POST', key, json: { lines: [{ orderLineId: order.lines[0].id, quantity: 1 }] } });
  if (shipment.status !== 201) throw new Error(`shipping vendor B's order answered ${shipment.status}: ${JSON.stringify(shipment.body)}`);

  // Money of the store a vendor must not reach: a price list pricing B's variant, a gift card sent to a shopper.
  const priceList = await api('/api/price-lists', {
    method: 'POST',
    key,
    json: { name: `Sweep prices ${tag}`, currency: 'USD', prices: [{ variantId: draft.variants[0].id, amount: 1 }] },
  });
  if (priceList.status !== 201) throw new Error(`creating a price list answered ${priceList.status}: ${JSON.stringify(priceList.body)}`);
  const giftCard = await api('/api/gift-cards', { method: 'POST', key, json: { amount: 25, currency: 'USD', recipientName: `Sweep recipient ${tag}` } });
  if (giftCard.status !== 201) throw new Error(`issuing a gift card answered ${giftCard.status}: ${JSON.stringify(giftCard.body)}`);

  const callers: Caller[] = [
    { name: 'anonymous', kind: 'anonymous', permissions: [], vendorId: null },
    { name: 'publishable key', kind: 'publishable', credential: publishable.key, permissions: [], vendorId: null },
    { name: 'customer', kind: 'user', credential: customer.token, permissions: customerPermissions, vendorId: null },
    { name: 'vendor A user', kind: 'user', credential: vendorA.token, permissions: vendorPermissions, vendorId: vendorA.vendor.id },
    { name: 'vendor A key', kind: 'api_key', credential: await vendorKey(vendorA.vendor.id), permissions: vendorPermissions, vendorId: vendorA.vendor.id },
    { name: 'admin key', kind: 'api_key', credential: key, permissions: ['*'], vendorId: null },
  ];
  for (const permission of everySinglePermission()) {
    const minted = await createApiKey(db(), { name: `sweep ${permission}`, permissions: [permission] });
    callers.push({ name: `key of ${permission}`, kind: 'api_key', credential: minted.key, permissions: [permission], vendorId: null, single: true });
  }
  const markers: Markers = {
    ids: [order.id, order.lines[0].id, shipment.body.data.id, draft.id, draft.variants[0].id, priceList.body.data.id, giftCard.body.data.id],
    texts: [email, `SWEEP-B-${tag}`, `Sweep draft ${tag}`, `Sweep prices ${tag}`, `Sweep recipient ${tag}`],
  };
  return { callers, markers, adminKey: key };
}
