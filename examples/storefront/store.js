// The storefront's state: one StoreClient, the signed-in customer (its JWT in localStorage), and the
// cart (a guest cart's id and token in localStorage, so it survives reloads; a customer's cart is
// the API's `me` cart). Views read `session` and `cart` and call these functions; every change
// is announced to `onChange` listeners (the header's cart count and account link).

import { AuthenticationError, NotFoundError, StoreClient } from './vendor/store-client.js';
import config from './config.js';

const SESSION_KEY = 'storefront.session';
const CART_KEY = 'storefront.cart';
const ORDER_KEY = 'storefront.lastOrder';
const CURRENCY_KEY = 'storefront.currency';

export { config };

/**
 * The client. `publishableKey` (when configured) is sent while no customer is signed in;
 * `setToken` puts the customer's JWT in its place (the token wins).
 */
export const client = new StoreClient({
  baseUrl: config.apiUrl,
  publishableKey: config.publishableKey || undefined,
  // A storefront cannot keep a shopper waiting a minute: give up on long Retry-After and say so.
  maxRetries: 2,
  maxRetryWaitMs: 5_000,
  timeoutMs: 20_000,
});

const listeners = new Set();
export const onChange = (fn) => listeners.add(fn);
const changed = () => listeners.forEach((fn) => fn());

const read = (key, storage = localStorage) => {
  try {
    return JSON.parse(storage.getItem(key) ?? 'null');
  } catch {
    return null;
  }
};
const write = (key, value, storage = localStorage) => (value == null ? storage.removeItem(key) : storage.setItem(key, JSON.stringify(value)));

/** `{ token, expiresAt, user }` of the signed-in customer, or null. */
export let session = read(SESSION_KEY);
if (session && !(session.expiresAt > Date.now() + 60_000)) session = null;
write(SESSION_KEY, session);
client.setToken(session?.token);

/** The cart as the API last answered it (or null before one exists). */
export let cart = null;
/** A guest cart's `{ id, token }` (the token is shown once by the API: kept here). */
let guestCart = session ? null : read(CART_KEY);

/** The store currency, for catalogue prices (from the public currencies list, kept per tab). */
export let currency = read(CURRENCY_KEY, sessionStorage) ?? 'USD';

function setCart(value) {
  cart = value;
  changed();
  return value;
}

function startSession(result) {
  session = { token: result.token, expiresAt: Date.now() + result.expiresIn * 1000, user: result.user };
  write(SESSION_KEY, session);
  client.setToken(session.token);
}

/** Forgets the customer (and the cart, which is the customer's). */
export function signOut() {
  session = null;
  write(SESSION_KEY, null);
  client.setToken(null);
  forgetGuestCart();
  setCart(null);
}

/** A call made with a customer token that the API no longer accepts signs the customer out. */
export async function guarded(promise) {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof AuthenticationError && session) signOut();
    throw error;
  }
}

function forgetGuestCart() {
  guestCart = null;
  write(CART_KEY, null);
}

/** Reads the currency and the cart once, when the page loads. */
export async function boot() {
  const work = [loadCart()];
  if (!read(CURRENCY_KEY, sessionStorage)) {
    work.push(
      client.currencies.list({ limit: 100, fields: 'code,isDefault' }).then(({ data }) => {
        currency = data.find((c) => c.isDefault)?.code ?? currency;
        write(CURRENCY_KEY, currency, sessionStorage);
      }),
    );
  }
  await Promise.allSettled(work);
}

/** The cart: the customer's active one (POST /api/carts answers it, or a new one), or the kept guest cart. */
export async function loadCart() {
  if (session) return setCart(await guarded(client.carts.create({})));
  if (!guestCart) return setCart(null);
  try {
    const found = await client.carts.get(guestCart.id, { cartToken: guestCart.token });
    if (found.status === 'converted') {
      forgetGuestCart();
      return setCart(null);
    }
    return setCart(found);
  } catch (error) {
    if (error instanceof NotFoundError) {
      forgetGuestCart();
      return setCart(null);
    }
    throw error;
  }
}

/** The cart's id and the options its calls need (the guest token). */
async function ensureCart() {
  if (!cart) {
    if (session) setCart(await guarded(client.carts.create({})));
    else {
      const created = await client.carts.create({});
      guestCart = { id: created.id, token: created.token };
      write(CART_KEY, guestCart);
      setCart(created);
    }
  }
  return [cart.id, guestCart ? { cartToken: guestCart.token } : {}];
}

const cartCall = async (fn) => {
  const [id, options] = await ensureCart();
  return setCart(await guarded(fn(id, options)));
};

export const addLine = (variantId, quantity) => cartCall((id, o) => client.carts.lines.add(id, { variantId, quantity }, o));
export const setQuantity = (lineId, quantity) => cartCall((id, o) => client.carts.lines.update(id, lineId, { quantity }, o));
export const removeLine = (lineId) => cartCall((id, o) => client.carts.lines.remove(id, lineId, o));
export const applyCoupon = (code) => cartCall((id, o) => client.carts.applyCoupon(id, { code }, o));
export const removeCoupon = () => cartCall((id, o) => client.carts.removeCoupon(id, o));
/** Email and shipping address: the answer is the cart's quote (shipping and tax of that address). */
export const updateCart = (body) => cartCall((id, o) => client.carts.update(id, body, o));

/** Signs up with the guest cart's token, so the API makes the guest cart the new customer's. */
export async function signUp({ name, email, password }) {
  const result = await client.auth.register({ name, email, password, ...(guestCart ? { cartToken: guestCart.token } : {}) });
  startSession(result);
  forgetGuestCart();
  await loadCart();
}

/** Signs in with the guest cart's token, so the API merges the guest cart into the customer's. */
export async function signIn({ email, password }) {
  const result = await client.auth.login({ email, password, ...(guestCart ? { cartToken: guestCart.token } : {}) });
  startSession(result);
  forgetGuestCart();
  await loadCart();
}

/**
 * Places the order. The Idempotency-Key is kept for the cart until it succeeds, so a retry after a
 * lost answer (a flaky network, a double click) returns the same order instead of a second one.
 */
export async function checkout(body) {
  const [id, options] = await ensureCart();
  const keyName = `storefront.checkout.${id}`;
  const idempotencyKey = sessionStorage.getItem(keyName) ?? crypto.randomUUID();
  sessionStorage.setItem(keyName, idempotencyKey);
  const order = await guarded(client.carts.checkout(id, body, { ...options, idempotencyKey }));
  sessionStorage.removeItem(keyName);
  write(ORDER_KEY, order, sessionStorage);
  forgetGuestCart();
  setCart(null);
  return order;
}

/** The order just placed (a guest cannot read orders back from the API, so it is kept in this tab). */
export const lastOrder = () => read(ORDER_KEY, sessionStorage);

export const cartCount = () => (cart?.lines ?? []).reduce((n, line) => n + line.quantity, 0);

/** Formats an amount in major units. */
export function money(amount, code = currency) {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: code }).format(amount);
}
