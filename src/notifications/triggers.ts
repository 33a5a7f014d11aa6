/**
 * What can trigger a notification, and the variables each trigger gives its templates. Outbox
 * events (src/lib/events.ts) reach the planner through the store-events queue; the internal
 * triggers are raised by the code that owns them (password reset, a webhook endpoint switched off)
 * and never reach a webhook. A template may use only its trigger's variables (422 otherwise).
 */

interface TriggerSpec<V extends Record<string, string>, P extends string | null> {
  variables: V;
  /** Staff who may read what the message is about get its admin templates; null: none. */
  permission: P;
  /**
   * The variables whose value is a credential: a token, or a link holding one. They are `[redacted]`
   * in the stored message and put back only in the provider's copy (src/notifications/outgoing.ts),
   * and a trigger with any is one whose templates decide where that credential goes: only a caller
   * holding `*` may change them. Every trigger says, `[]` included (test/notifications/credential-templates.test.ts
   * checks the list against what each trigger's messages really hold).
   */
  credentials: readonly (keyof V & string)[];
}

/** A trigger, with its credentials checked against its own variables. */
const trigger = <const V extends Record<string, string>, const P extends string | null>(spec: TriggerSpec<V, P>) => spec;

const STORE = { storeName: "The store's name (settings)." };

const ORDER = {
  ...STORE,
  orderNumber: 'The order number customers know, as they see it: "#1001".',
  orderId: 'The order id.',
  customerName: "The customer's name, else the email address.",
  email: 'The address the order belongs to.',
  status: "The order's status.",
  currency: 'ISO 4217 code.',
  items: 'One line per item: quantity x name (SKU), line total.',
  itemCount: 'Units ordered.',
  subtotal: 'Amounts with their currency, like "42.50 EUR".',
  discountTotal: '',
  shippingTotal: '',
  taxTotal: '',
  total: '',
  amountPaid: '',
  couponCode: 'The coupon used, if any.',
  shippingAddress: 'The shipping address on one line.',
};

const RETURN = { ...ORDER, returnId: 'The return id.', returnItems: 'One line per item in the return: quantity x name (SKU).' };

export const TRIGGERS = {
  'order.placed': trigger({ variables: ORDER, permission: null, credentials: [] }),
  'order.cancelled': trigger({ variables: ORDER, permission: null, credentials: [] }),
  'payment.completed': trigger({
    variables: { ...ORDER, paymentId: 'The payment id.', amount: 'The amount of this payment, with its currency.' },
    permission: null,
    credentials: [],
  }),
  'shipment.shipped': trigger({
    variables: {
      ...ORDER,
      shipmentId: 'The shipment id.',
      carrier: 'The carrier (UPS, DHL, ...).',
      trackingNumber: 'The tracking number.',
      trackingUrl: 'The tracking link, if one was given.',
      shipmentItems: 'One line per item in this shipment.',
    },
    permission: null,
    credentials: [],
  }),
  'payment.refunded': trigger({
    variables: {
      ...ORDER,
      paymentId: 'The payment refunded.',
      refundId: 'The refund id.',
      amount: 'What this refund gave back, with its currency.',
      destination: 'Where the money went: "your original payment method" or "your store credit".',
    },
    permission: null,
    credentials: [],
  }),
  'return.approved': trigger({ variables: { ...RETURN, resolution: "Staff's words, if any (where to send the parcel)." }, permission: null, credentials: [] }),
  'return.rejected': trigger({ variables: { ...RETURN, resolution: "Staff's words: why it was rejected." }, permission: null, credentials: [] }),
  'return.received': trigger({ variables: RETURN, permission: null, credentials: [] }),
  'gift_card.issued': trigger({
    variables: {
      ...STORE,
      recipientName: "The recipient's name, else their email address.",
      recipientEmail: 'The address the card is sent to.',
      giftCardId: 'The gift card id.',
      amount: "The card's value, with its currency.",
      expiresAt: 'When the card expires (YYYY-MM-DD), or "never".',
      code: "The card's code; `[redacted]` in the stored message, real only in the email sent.",
    },
    permission: null,
    /** The code spends the card. */
    credentials: ['code'],
  }),
  'customer.registered': trigger({
    variables: { ...STORE, customerName: "The customer's name, else the email address.", email: "The account's email.", customerId: 'The account id.' },
    permission: null,
    credentials: [],
  }),
  'cart.abandoned': trigger({
    variables: {
      ...STORE,
      customerName: "The customer's name, else the email address.",
      email: 'The address the reminder goes to.',
      cartId: 'The cart id.',
      items: 'One line per item in the cart: quantity x name.',
      itemCount: 'Units in the cart.',
      recoveryUrl: 'CART_RECOVERY_URL with `cart` and a single-use `token` query parameter. Only the email sent holds the token: the stored message shows `[redacted]`.',
      token: 'The single-use recovery token; `[redacted]` in the stored message, real only in the email sent.',
      expiresInDays: 'How long the link works.',
    },
    permission: null,
    /** The link reopens the customer's cart with a new cart token: their address, and checkout on their account. */
    credentials: ['recoveryUrl', 'token'],
  }),
  'inventory.low': trigger({
    variables: {
      ...STORE,
      productId: '',
      productName: '',
      variantId: '',
      variantName: "The variant's name (empty for a single-variant product).",
      sku: '',
      quantity: 'Units left.',
      threshold: 'The low-stock threshold in force.',
    },
    permission: 'inventory:read',
    credentials: [],
  }),
  password_reset: trigger({
    variables: {
      ...STORE,
      customerName: "The account's name, else the email address.",
      email: "The account's email.",
      resetUrl: 'PASSWORD_RESET_URL with the token as `token` query parameter. Only the email sent holds the token: the stored message shows `[redacted]`.',
      token: 'The single-use reset token; `[redacted]` in the stored message, real only in the email sent.',
      expiresInMinutes: 'How long the token is valid.',
    },
    permission: null,
    /** The link opens any account, admins' too. */
    credentials: ['resetUrl', 'token'],
  }),
  webhook_endpoint_disabled: trigger({
    variables: {
      ...STORE,
      endpointId: '',
      url: "The endpoint's URL.",
      failingSince: 'When its run of failures began.',
      disabledAt: '',
      problem: 'What the last attempt got (`HTTP 500`, `timeout after 10000 ms`).',
      disableAfterHours: 'WEBHOOK_DISABLE_AFTER_HOURS.',
    },
    permission: 'webhooks:read',
    credentials: [],
  }),
};

export type Trigger = keyof typeof TRIGGERS;

export function isTrigger(name: string): name is Trigger {
  return Object.hasOwn(TRIGGERS, name);
}

/** The variables of `trigger` whose values are credentials (none for an unknown trigger). */
export function credentialVariables(trigger: string): readonly string[] {
  return isTrigger(trigger) ? TRIGGERS[trigger].credentials : [];
}

/** True for a trigger whose messages carry a credential: editing its templates is editing where that credential goes. */
export const carriesCredential = (trigger: string): boolean => credentialVariables(trigger).length > 0;

export function triggerVariables(trigger: string): string[] {
  return isTrigger(trigger) ? Object.keys(TRIGGERS[trigger].variables) : [];
}

/** Example values of every variable, for previews. */
export const SAMPLE_DATA: Record<string, string | number> = {
  storeName: 'Demo Store',
  orderNumber: '#1001',
  orderId: 'ord_01KSAMPLE00000000000000000',
  customerName: 'Ada Lovelace',
  customerId: 'user_01KSAMPLE0000000000000000',
  email: 'ada@example.com',
  status: 'processing',
  currency: 'EUR',
  items: '2 x Canvas tote (TOTE-1)  49.00 EUR\n1 x Mug (MUG-2)  12.00 EUR',
  itemCount: 3,
  subtotal: '61.00 EUR',
  discountTotal: '6.10 EUR',
  shippingTotal: '4.90 EUR',
  taxTotal: '11.36 EUR',
  total: '71.16 EUR',
  amountPaid: '71.16 EUR',
  couponCode: 'WELCOME10',
  shippingAddress: 'Ada Lovelace, 1 Main St, 10115 Berlin, DE',
  paymentId: 'pay_01KSAMPLE00000000000000000',
  amount: '71.16 EUR',
  shipmentId: 'ship_01KSAMPLE0000000000000000',
  carrier: 'UPS',
  trackingNumber: '1Z999AA10123456784',
  trackingUrl: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
  shipmentItems: '2 x Canvas tote (TOTE-1)\n1 x Mug (MUG-2)',
  productId: 'prod_01KSAMPLE0000000000000000',
  productName: 'Canvas tote',
  variantId: 'var_01KSAMPLE00000000000000000',
  variantName: 'Natural',
  sku: 'TOTE-1',
  quantity: 3,
  threshold: 5,
  resetUrl: 'https://shop.example/reset-password?token=SAMPLE',
  cartId: 'cart_01KSAMPLE0000000000000000',
  recoveryUrl: 'https://shop.example/cart?cart=cart_01KSAMPLE0000000000000000&token=SAMPLE',
  expiresInDays: 7,
  token: 'SAMPLE',
  expiresInMinutes: 60,
  refundId: 're_01KSAMPLE000000000000000000',
  destination: 'your original payment method',
  returnId: 'ret_01KSAMPLE00000000000000000',
  returnItems: '1 x Mug (MUG-2)',
  resolution: 'Please send it to 1 Main St, 10115 Berlin.',
  recipientName: 'Ada Lovelace',
  recipientEmail: 'ada@example.com',
  giftCardId: 'gc_01KSAMPLE000000000000000000',
  expiresAt: '2027-11-23',
  code: 'SAMPLE',
  endpointId: 'we_01KSAMPLE00000000000000000',
  url: 'https://hooks.example.com/store',
  failingSince: '2026-11-20T08:00:00.000Z',
  disabledAt: '2026-11-23T08:00:00.000Z',
  problem: 'HTTP 500',
  disableAfterHours: 72,
};
