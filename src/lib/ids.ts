export const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A prefixed, time-ordered id (`prod_01JD...`): 10 characters of millisecond time and 16 of
 * randomness (80 bits), in Crockford base32, so ids sort by creation and index well.
 */
export function newId(prefix: string, now = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let random = '';
  for (const b of bytes) random += CROCKFORD[b % 32];
  return `${prefix}_${time}${random}`;
}

/** `count` ids of one moment that sort in the order given (their random parts sorted): rows listed by id keep it. */
export function newIds(prefix: string, count: number, now = Date.now()): string[] {
  return Array.from({ length: count }, () => newId(prefix, now)).sort();
}

export const ID_PREFIX = {
  product: 'prod',
  variant: 'var',
  category: 'cat',
  brand: 'brand',
  vendor: 'vend',
  apiKey: 'key',
  user: 'user',
  address: 'addr',
  role: 'role',
  inventoryAdjustment: 'adj',
  cart: 'cart',
  cartLine: 'cline',
  cartRecovery: 'crec',
  order: 'ord',
  orderLine: 'oline',
  orderEvent: 'ohist',
  payment: 'pay',
  refund: 're',
  storeCreditEntry: 'sce',
  shipment: 'ship',
  return: 'ret',
  returnLine: 'retl',
  event: 'evt',
  webhookEndpoint: 'we',
  webhookDelivery: 'whd',
  webhookAttempt: 'wha',
  webhookReplay: 'whr',
  notification: 'ntf',
  passwordReset: 'pwr',
  taxRate: 'tax',
  shippingZone: 'szone',
  shippingMethod: 'smeth',
  coupon: 'coup',
  couponUsage: 'cuse',
  promotion: 'promo',
  promotionUsage: 'puse',
  page: 'page',
  menu: 'menu',
  banner: 'bnr',
  media: 'med',
  productImport: 'imp',
  giftCard: 'gc',
  giftCardTransaction: 'gct',
  customerGroup: 'cgrp',
  priceList: 'plist',
} as const;
