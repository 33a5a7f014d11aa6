// A small storefront written against the built package's declarations: it must compile
// (`tsc -p clients/typescript/test`, run by test/live.test.mjs), which proves that the generated
// parameter and answer types are real: numeric query parameters take numbers, list methods answer
// `{ data, pagination }`, item methods the schema's type. Nothing here is run.

import { constructEvent, NotFoundError, StoreApiError, StoreClient, verifyWebhook, webhookHandler, type Cart, type Order, type Product, type StoreEvent } from '@store-api/client';

export async function storefront(baseUrl: string, category: string): Promise<Order> {
  const store = new StoreClient({ baseUrl, maxRetries: 5, onRetry: ({ attempt, delayMs, status }) => console.log(attempt, delayMs, status) });

  // Numbers where the document says integer or number; enums and strings where it says so.
  const { data, pagination } = await store.products.list({ category, price_max: 30, page: 1, limit: 20, sort: 'price:desc', fields: 'id,name,variants(id,price)' });
  const first: Product | undefined = data[0];
  const pages: number = pagination.totalPages;
  // @ts-expect-error price_max is a number, not a string
  await store.products.list({ price_max: 'x' });
  // @ts-expect-error limit is a number
  await store.products.list({ limit: '20' });
  // @ts-expect-error no such status
  await store.products.list({ status: 'sold' });

  for await (const page of store.products.iterate({ category, limit: 100 })) {
    for (const product of page.data) console.log(product.name, product.price.toFixed(2), pages);
  }

  const product = await store.products.get(first?.id ?? 'prod_x', { fields: 'id,name,variants' });
  const variantId = product.variants[0]?.id ?? 'var_x';

  const cart = await store.carts.create({ currency: 'USD' });
  store.setCartToken(cart.token ?? null);
  const withLine: Cart = await store.carts.lines.add(cart.id, { variantId, quantity: 1 });
  console.log(withLine.totals);
  // @ts-expect-error quantity is a number
  await store.carts.lines.add(cart.id, { variantId, quantity: 'one' });

  const session = await store.auth.register({ email: 'ada@example.com', password: 'correct horse battery', name: 'Ada' });
  store.setToken(session.token);
  const me = await store.auth.me();
  console.log(me.email);

  try {
    return await store.carts.checkout(cart.id, { email: me.email }, { idempotencyKey: 'checkout-1' });
  } catch (error) {
    if (error instanceof NotFoundError) console.log(error.requestId);
    if (error instanceof StoreApiError) console.log(error.code, error.status, error.details);
    throw error;
  }
}

export async function receive(body: Uint8Array, headers: Headers, secret: string): Promise<boolean> {
  const { valid, deliveryId, event } = await verifyWebhook({ body, headers, secret });
  console.log(deliveryId, event);
  return valid;
}

// A browser storefront with a publishable key, and a server one naming each shopper.
export async function storefronts(baseUrl: string, publishableKey: string, secretKey: string, shopperIp: string): Promise<number> {
  const browser = new StoreClient({ baseUrl, publishableKey });
  browser.setToken(null).setPublishableKey(publishableKey);
  const server = new StoreClient({ baseUrl, apiKey: secretKey, buyerIp: shopperIp });
  server.setBuyerIp(null);
  const { pagination } = await server.products.list({ category: 't-shirts' }, { buyerIp: shopperIp });
  await server.with({ buyerIp: shopperIp }).carts.create({});
  // @ts-expect-error buyerIp is one address, a string
  await server.products.list({}, { buyerIp: 127 });
  return pagination.total + (await browser.products.list()).data.length;
}

// Typed events: each handler gets its kind's body; narrowing a StoreEvent on `event` types its data.
export const receiver: (request: Request) => Promise<Response> = webhookHandler({
  secret: 'whsec_x',
  on: {
    'order.placed': (event) => {
      const number: number = event.data.orderNumber;
      const customer: string | null = event.data.customerId;
      // @ts-expect-error an order.placed carries no product
      console.log(number, customer, event.data.product);
    },
    'product.updated': (event) => console.log(event.data.product.variants[0]?.sku),
    'inventory.low': (event) => console.log(event.data.quantity <= event.data.threshold),
    // @ts-expect-error no such event kind
    'order.exploded': () => {},
  },
});

export async function received(body: string, headers: Headers): Promise<number | undefined> {
  const event: StoreEvent = await constructEvent({ body, headers, secrets: ['whsec_new', 'whsec_old'] });
  if (event.event === 'payment.refunded') return event.data.amount;
  if (event.event === 'shipment.shipped') return event.data.lines.length;
  // @ts-expect-error only payment events carry a paymentId
  return event.data.paymentId;
}
