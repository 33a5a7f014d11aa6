import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { created, list, ok, pagination } from '../../lib/envelope';
import { project } from '../../lib/query';
import type { AppRouteHandler } from '../../lib/openapi';
import { actorRef, type Principal } from '../../lib/access';
import { adoptGuestCart } from './adopt';
import { type CartAction, CART_TOKEN_HEADER, reachCart, refuseCartListOutsiders, refuseVendors } from './carts.access';
import { cartView, shippingOptions } from './cart-view';
import { toMajor } from '../../lib/money';
import type * as routes from './carts.routes';
import * as service from './carts.service';
import { toOrder, orderNumberStart } from '../orders';
import { checkout } from './checkout';
import * as cartGiftCards from './cart-gift-cards';
import { shopperNetwork } from '../../lib/client-network';
import { recoverySecret, redeemRecovery } from './recovery';

/** The cart the path names, if this caller (principal and cart token) may `action` it. */
const cartFor = (c: Context<AppEnv>, id: string, action: CartAction) => reachCart(c.var.db, c.var.principal, id, c.req.header(CART_TOKEN_HEADER), action);

/** Runs a change on a reachable cart, then answers with the whole cart priced again. */
async function changed(c: Context<AppEnv>, id: string, change: (cart: Awaited<ReturnType<typeof cartFor>>) => Promise<unknown>, message: string) {
  const cart = await cartFor(c, id, 'write');
  await change(cart);
  return ok(c, await cartView(c.var.db, await service.reread(c.var.db, cart.id)), message);
}

export const listCarts: AppRouteHandler<typeof routes.listCarts> = async (c) => {
  refuseCartListOutsiders(c.var.principal);
  const query = c.req.valid('query');
  const { items, total } = await service.listCarts(c.var.db, query);
  return list(
    c,
    items.map((cart) => project(cart, query.fields)),
    pagination(query.page, query.limit, total),
  );
};

export const createCart: AppRouteHandler<typeof routes.createCart> = async (c) => {
  refuseVendors(c.var.principal);
  const { cart, token, created: isNew } = await service.createCart(c.var.db, c.var.principal, c.req.valid('json'));
  const view = { ...(await cartView(c.var.db, cart)), ...(token ? { token } : {}) };
  return isNew ? created(c, view, `/api/carts/${cart.id}`, 'Cart created') : ok(c, view, 'Your active cart');
};

export const getCart: AppRouteHandler<typeof routes.getCart> = async (c) => {
  const cart = await cartFor(c, c.req.valid('param').id, 'read');
  return ok(c, await cartView(c.var.db, cart));
};

export const updateCart: AppRouteHandler<typeof routes.updateCart> = async (c) =>
  changed(c, c.req.valid('param').id, (cart) => service.updateCart(c.var.db, cart, c.req.valid('json')), 'Cart updated');

export const addLine: AppRouteHandler<typeof routes.addLine> = async (c) =>
  changed(c, c.req.valid('param').id, (cart) => service.addLine(c.var.db, cart, c.req.valid('json')), 'Added to the cart');

export const updateLine: AppRouteHandler<typeof routes.updateLine> = async (c) => {
  const { id, lineId } = c.req.valid('param');
  return changed(c, id, (cart) => service.setLineQuantity(c.var.db, cart, lineId, c.req.valid('json').quantity), 'Line updated');
};

export const removeLine: AppRouteHandler<typeof routes.removeLine> = async (c) => {
  const { id, lineId } = c.req.valid('param');
  return changed(c, id, (cart) => service.removeLine(c.var.db, cart, lineId), 'Line removed');
};

export const applyCoupon: AppRouteHandler<typeof routes.applyCoupon> = async (c) =>
  changed(c, c.req.valid('param').id, (cart) => service.applyCoupon(c.var.db, cart, c.req.valid('json').code), 'Coupon applied');

export const removeCoupon: AppRouteHandler<typeof routes.removeCoupon> = async (c) =>
  changed(c, c.req.valid('param').id, (cart) => service.removeCoupon(c.var.db, cart), 'Coupon removed');

export const applyGiftCard: AppRouteHandler<typeof routes.applyGiftCard> = async (c) =>
  changed(c, c.req.valid('param').id, (cart) => cartGiftCards.applyGiftCard(c.var.db, cart, c.req.valid('json').code, shopperNetwork(c)), 'Gift card applied');

export const removeGiftCard: AppRouteHandler<typeof routes.removeGiftCard> = async (c) =>
  changed(c, c.req.valid('param').id, (cart) => cartGiftCards.removeGiftCard(c.var.db, cart, c.req.valid('param').giftCardId), 'Gift card removed');

export const recoverCart: AppRouteHandler<typeof routes.recoverCart> = async (c) => {
  const { cart, token } = await redeemRecovery(c.var.db, recoverySecret(c.env), c.req.valid('param').id, c.req.valid('json').token);
  return ok(c, { ...(await cartView(c.var.db, cart)), token }, 'Welcome back: your cart');
};

export const adoptCart: AppRouteHandler<typeof routes.adoptCart> = async (c) => {
  const user = c.var.principal as Extract<Principal, { kind: 'user' }>;
  // Only the token opens the guest cart here: staff reach alone must not move a stranger's cart into their own.
  const guest = await reachCart(c.var.db, { kind: 'anonymous' }, c.req.valid('param').id, c.req.header(CART_TOKEN_HEADER), 'write');
  refuseVendors(user);
  const cart = await adoptGuestCart(c.var.db, user.id, guest);
  return ok(c, await cartView(c.var.db, cart), 'Cart adopted');
};

export const getShippingOptions: AppRouteHandler<typeof routes.getShippingOptions> = async (c) => {
  const cart = await cartFor(c, c.req.valid('param').id, 'read');
  const { currency, options } = await shippingOptions(c.var.db, cart);
  return ok(
    c,
    options.map(({ method, price }) => ({
      id: method.id,
      name: method.name,
      carrier: method.carrier,
      minDeliveryDays: method.minDeliveryDays,
      maxDeliveryDays: method.maxDeliveryDays,
      amount: toMajor(price, currency.minorUnits),
    })),
  );
};

export const checkoutCart: AppRouteHandler<typeof routes.checkoutCart> = async (c) => {
  const cart = await cartFor(c, c.req.valid('param').id, 'write');
  const actor = actorRef(c.var.principal, `guest:${cart.id}`);
  const placed = await checkout(c.var.db, c.env, cart, c.req.valid('json'), actor, orderNumberStart(c.env));
  return created(c, toOrder(placed.order, placed.lines), `/api/orders/${placed.order.id}`, 'Order placed');
};
