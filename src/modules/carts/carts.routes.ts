import { access } from '../../lib/route-access';
import { z } from '@hono/zod-openapi';
import { IdempotencyHeaders } from '../../middleware/idempotency';
import { OrderSchema } from '../orders/schemas';
import { apiRoute, errorResponses, jsonBody, listResponse, operation, successResponse } from '../../lib/openapi';
import { listQuerySchema } from '../../lib/query';
import { cartListQuery } from './carts.query';
import { CART_TOKEN_HEADER, SELF_CART } from './carts.access';
import {
  AddLineBody,
  ApplyCouponBody,
  ApplyGiftCardBody,
  CartSchema,
  CheckoutBody,
  CreateCartBody,
  NewCartSchema,
  ShippingOptionSchema,
  UpdateCartBody,
  UpdateLineBody,
} from './carts.schemas';

const tags = ['Carts'];
/** Guest carts need no credential (their token is the key); a credential that is present and bad is still 401. */
const bodyErrors = [413, 415, 422] as const;

const reach =
  `A guest cart is reached with its token in \`${CART_TOKEN_HEADER}\`; a customer's cart by that customer (with its token from ` +
  '`POST /api/auth/login`, also as `me`); staff with `carts:read` (reads) or `carts:write` / `orders:write` reach every cart. ' +
  "A wrong or missing token, or another customer's cart, is 404 exactly as an unknown id. Vendor users get 403.";
const priced =
  'The cart is priced anew on every response (catalogue prices, currency rate, coupon, tax of the shipping address, shipping): ' +
  'amounts are in major units of the cart currency, each line rounded half-up and totals summed from the rounded lines. ' +
  'A coupon that can no longer be used, a product taken off sale or a currency no longer sold is removed from the cart ' +
  'instead of failing the request; the response that removed it lists why in `notices` (once).';
const checkedOut = 'A checked-out cart can be read but not changed: 409.';
const defaults =
  "A customer's cart without a shipping (or billing) address of its own uses the customer's default one (`isDefaultShipping`, " +
  '`isDefaultBilling` at `/api/customers/me/addresses`): the cart shows it and is taxed by it, and checkout ships to it. An address set on ' +
  'the cart, or given to checkout, wins; the default is read at each use, so changing it before checkout changes the cart.';

export const CartParams = z.object({
  id: z
    .string()
    .min(1)
    .max(200)
    .openapi({
      param: { name: 'id', in: 'path' },
      example: 'cart_01JD0000000000000000000000',
      description: `A cart id, or \`${SELF_CART}\` for the signed-in user's active cart.`,
    }),
});
const LineParams = CartParams.extend({
  lineId: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: 'lineId', in: 'path' }, example: 'cline_01JD0000000000000000000000' }),
});
export const CartTokenHeaders = z.object({
  'x-cart-token': z
    .string()
    .optional()
    .openapi({
      param: { in: 'header' },
      description: 'The guest cart token from `POST /api/carts` (header names are case-insensitive: `X-Cart-Token`).',
      example: `ct_${'a'.repeat(40)}`,
    }),
});

const cartResponse = (description: string) => successResponse(CartSchema, description);

export const listCarts = apiRoute({
  ...operation('carts', 'list', 'listCarts'),
  method: 'get',
  path: '/carts',
  tags,
  summary: 'List carts (staff)',
  description:
    'Every cart, most recently changed first: open ones, converted ones, and (with `updated_before`) those idle since a moment. Staff with `carts:read`, ' +
    '`carts:write` or `orders:write`; a credential without them is 403. Customers and vendor users get 404: a customer reaches its own cart at ' +
    '`/api/carts/me`, vendors have no carts. Each cart is priced as `GET /api/carts/{id}` prices it (catalogue prices, currency, coupon, tax, shipping), ' +
    'but nothing is taken out of it and its `updatedAt` (the idle clock) does not move: `notices` say what its next read by its owner will remove. ' +
    "`min_total` compares the lines at today's catalogue prices in the store's default currency, before discounts, tax and shipping.",
  policy: { access: access.credential('staff with `carts:read`, `carts:write` or `orders:write`; other keys 403, customers and vendor users 404.') },
  request: { query: listQuerySchema(cartListQuery) },
  responses: { 200: listResponse(CartSchema, 'A page of carts.'), ...errorResponses(400, 401, 403, 404) },
});

export const createCart = apiRoute({
  ...operation('carts', 'create', 'createCart'),
  method: 'post',
  path: '/carts',
  tags,
  summary: 'Create a cart',
  description:
    'Public. Without a credential (or with an API key) it creates a guest cart, 201, whose `token` is shown this once: send it as ' +
    `\`${CART_TOKEN_HEADER}\` on every call for the cart (only its SHA-256 is stored). A signed-in user gets its active cart: 200 with the ` +
    'existing one (as it is; the body is ignored) or 201 with a new one, without a token. Staff with `carts:write` or `orders:write` may ' +
    'name a `customerId` to do the same for a customer. `currency` must be one the store sells in (422); the default otherwise. Vendor users get 403.',
  policy: { access: access.public() },
  request: { body: { ...jsonBody(CreateCartBody, 'Optional: `currency`, `email`, and for staff `customerId`.'), required: false } },
  responses: {
    200: successResponse(NewCartSchema, "The signed-in customer's existing active cart."),
    201: successResponse(NewCartSchema, 'The new cart (with `token` for a guest cart).'),
    ...errorResponses(401, 403, ...bodyErrors),
  },
});

export const getCart = apiRoute({
  ...operation('carts', 'get', 'getCart'),
  method: 'get',
  path: '/carts/{id}',
  tags,
  summary: 'Get a cart',
  description: `${reach} \`GET /api/carts/${SELF_CART}\` is the signed-in user's active cart (404 when it has none). ${priced} ${defaults}`,
  policy: { access: access.public() },
  request: { params: CartParams, headers: CartTokenHeaders },
  responses: { 200: cartResponse('The cart, priced now.'), ...errorResponses(401, 403, 404) },
});

export const getShippingOptions = apiRoute({
  ...operation('carts', 'shippingOptions', 'listCartShippingOptions'),
  method: 'get',
  path: '/carts/{id}/shipping-options',
  tags,
  summary: "List the cart's shipping options",
  description:
    "The active methods of the shipping zone that serves the cart's shipping address (docs/api.md, Shipping), in the store's order (`position`), " +
    "each priced for this cart now in the cart's currency (by its weight or its subtotal after discounts, free from the method's `freeAbove`). " +
    'A method whose weight or price bands do not cover the cart is left out. An empty list: no zone serves the address, and checkout would answer ' +
    "422 SHIPPING_UNAVAILABLE. A cart without a shipping address (its own or its customer's default) is 409 naming `shippingAddress`. " +
    `Choose one with \`PATCH /api/carts/{id}\` \`{ "shippingMethodId": ... }\`; without a choice the cart ships by the cheapest. ${reach}`,
  policy: { access: access.public() },
  request: { params: CartParams, headers: CartTokenHeaders },
  responses: { 200: successResponse(z.array(ShippingOptionSchema), 'The shipping options, priced for the cart.'), ...errorResponses(401, 403, 404, 409) },
});

export const updateCart = apiRoute({
  ...operation('carts', 'update', 'updateCart'),
  method: 'patch',
  path: '/carts/{id}',
  tags,
  summary: 'Change email, currency, addresses or shipping method',
  description:
    'Addresses are validated as customer addresses (country: ISO 3166-1 alpha-2); null clears one. Tax and the shipping zone follow the shipping address. ' +
    "`shippingMethodId` must be one of the cart's shipping options (422 SHIPPING_UNAVAILABLE otherwise; 409 while the cart has no shipping address). " +
    `${defaults} ${reach} ${checkedOut}`,
  policy: { access: access.public() },
  request: { params: CartParams, headers: CartTokenHeaders, body: jsonBody(UpdateCartBody, 'Fields to change.') },
  responses: { 200: cartResponse('The updated cart.'), ...errorResponses(401, 403, 404, 409, ...bodyErrors) },
});

export const addLine = apiRoute({
  ...operation('carts.lines', 'add', 'addCartLine'),
  method: 'post',
  path: '/carts/{id}/lines',
  tags,
  summary: 'Add a variant to the cart',
  description:
    'Adds to the line of the same variant when there is one. A line holds 1 to 1000; a cart at most 50 lines (409 beyond). ' +
    'More than is in stock is 409 naming how many are left; an unknown variant or a product not for sale is 422. ' +
    `Stock is reserved only at checkout. ${reach} ${checkedOut}`,
  policy: { access: access.public() },
  request: { params: CartParams, headers: CartTokenHeaders, body: jsonBody(AddLineBody, 'The variant and how many.') },
  responses: { 200: cartResponse('The whole cart, priced now.'), ...errorResponses(401, 403, 404, 409, ...bodyErrors) },
});

export const updateLine = apiRoute({
  ...operation('carts.lines', 'update', 'updateCartLine'),
  method: 'patch',
  path: '/carts/{id}/lines/{lineId}',
  tags,
  summary: "Change a line's quantity",
  description: `0 removes the line. Raising it beyond the stock is 409 naming how many are left. ${reach} ${checkedOut}`,
  policy: { access: access.public() },
  request: { params: LineParams, headers: CartTokenHeaders, body: jsonBody(UpdateLineBody, 'The new quantity.') },
  responses: { 200: cartResponse('The whole cart, priced now.'), ...errorResponses(401, 403, 404, 409, ...bodyErrors) },
});

export const removeLine = apiRoute({
  ...operation('carts.lines', 'remove', 'removeCartLine'),
  method: 'delete',
  path: '/carts/{id}/lines/{lineId}',
  tags,
  summary: 'Remove a line',
  description: `Answers 200 with the whole cart (not 204), so the client need not read it again. ${reach} ${checkedOut}`,
  policy: { access: access.public() },
  request: { params: LineParams, headers: CartTokenHeaders },
  responses: { 200: cartResponse('The whole cart, priced now.'), ...errorResponses(401, 403, 404, 409) },
});

export const applyCoupon = apiRoute({
  ...operation('carts', 'applyCoupon', 'applyCartCoupon'),
  method: 'post',
  path: '/carts/{id}/coupon',
  tags,
  summary: 'Apply a coupon code',
  description:
    'Replaces any coupon the cart had. An unknown code is 422; a code that cannot be used now (inactive, not started, expired, used up, ' +
    'used the most times by this customer or guest email, no eligible item, subtotal below its minimum) is 409 naming why, and is not kept. ' +
    `${reach} ${checkedOut}`,
  policy: { access: access.public() },
  request: { params: CartParams, headers: CartTokenHeaders, body: jsonBody(ApplyCouponBody, 'The code (case-insensitive).') },
  responses: { 200: cartResponse('The cart with the discount.'), ...errorResponses(401, 403, 404, 409, ...bodyErrors) },
});

export const removeCoupon = apiRoute({
  ...operation('carts', 'removeCoupon', 'removeCartCoupon'),
  method: 'delete',
  path: '/carts/{id}/coupon',
  tags,
  summary: 'Remove the coupon',
  description: `Answers 200 with the whole cart. ${reach} ${checkedOut}`,
  policy: { access: access.public() },
  request: { params: CartParams, headers: CartTokenHeaders },
  responses: { 200: cartResponse('The cart without a coupon.'), ...errorResponses(401, 403, 404, 409) },
});

const GiftCardParams = CartParams.extend({
  giftCardId: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: 'giftCardId', in: 'path' }, example: 'gc_01JD0000000000000000000000' }),
});

export const applyGiftCard = apiRoute({
  ...operation('carts', 'applyGiftCard', 'applyCartGiftCard'),
  method: 'post',
  path: '/carts/{id}/gift-cards',
  tags,
  summary: 'Apply a gift card code',
  description:
    'Applies a gift card to the cart: at checkout, after the order is placed, each applied card pays what it holds of what is still owed ' +
    '(a `gift_card` payment), in the order applied, and the rest (`amountDue`) is paid as any order is. A wrong code is 422; wrong codes are ' +
    'locked out like sign-in: 5 from one network within 15 minutes refuse that network every gift-card code, the right one too, for 15 minutes ' +
    '(429 with Retry-After). A card that cannot pay this cart (disabled, expired, in another currency, empty) is 409. Applying a card twice keeps it once. ' +
    `${reach} ${checkedOut}`,
  policy: { access: access.public() },
  request: { params: CartParams, headers: CartTokenHeaders, body: jsonBody(ApplyGiftCardBody, 'The code.') },
  responses: { 200: cartResponse('The cart with the card in `giftCards`.'), ...errorResponses(401, 403, 404, 409, 429, ...bodyErrors) },
});

export const removeGiftCard = apiRoute({
  ...operation('carts', 'removeGiftCard', 'removeCartGiftCard'),
  method: 'delete',
  path: '/carts/{id}/gift-cards/{giftCardId}',
  tags,
  summary: 'Remove a gift card from the cart',
  description: `Answers 200 with the whole cart; a card not on the cart is 404. ${reach} ${checkedOut}`,
  policy: { access: access.public() },
  request: { params: GiftCardParams, headers: CartTokenHeaders },
  responses: { 200: cartResponse('The cart without the card.'), ...errorResponses(401, 403, 404, 409) },
});

export const adoptCart = apiRoute({
  ...operation('carts', 'adopt', 'adoptCart'),
  method: 'post',
  path: '/carts/{id}/adopt',
  tags,
  summary: "Take a guest cart into the signed-in user's cart",
  description:
    `For a signed-in user holding the guest cart's token (\`${CART_TOKEN_HEADER}\`). Without an active cart of its own, the guest cart becomes ` +
    "the user's (its token stops working). Otherwise the guest lines are merged into the user's active cart (quantities of the same variant " +
    'added, at most 1000 per line; 409 if the two would exceed 50 lines), which also takes the guest email, addresses and coupon where it has ' +
    "none, and the guest cart is deleted. Answers with the user's cart. `POST /api/auth/login` does the same with `cartToken` in its body. " +
    'API keys get 403; a wrong token 404; a checked-out guest cart 409.',
  policy: { access: access.user("the guest cart's token makes it the user's; a wrong token is 404.") },
  request: { params: CartParams, headers: CartTokenHeaders, body: { ...jsonBody(z.strictObject({}).openapi('AdoptCart'), 'Nothing (an empty body or none).'), required: false } },
  responses: { 200: cartResponse("The signed-in user's cart."), ...errorResponses(401, 403, 404, 409, ...bodyErrors) },
});

const RecoverCartBody = z
  .strictObject({ token: z.string().min(1).max(100).openapi({ description: "The `token` of the reminder email's link.", example: 'f3J9...' }) })
  .openapi('RecoverCart');

export const recoverCart = apiRoute({
  ...operation('carts', 'recover', 'recoverCart'),
  method: 'post',
  path: '/carts/{id}/recover',
  tags,
  summary: "Come back to an abandoned cart from its reminder's link",
  description:
    'The reminder email of an abandoned cart links to `CART_RECOVERY_URL?cart=<id>&token=<token>`; the storefront posts the token here. ' +
    'It works once, within 7 days, for that cart only: the cart is `active` again and answered with a new `token` (send it as ' +
    `\`${CART_TOKEN_HEADER}\`; the cart's old token stops working). A wrong, used or expired token, or another cart's, is 404 exactly as an ` +
    'unknown cart; a cart checked out since is 409. No credential needed: the token is the key.',
  policy: { access: access.public() },
  request: { params: CartParams, body: jsonBody(RecoverCartBody, 'The recovery token.') },
  responses: { 200: successResponse(NewCartSchema, 'The cart, with its new token.'), ...errorResponses(401, 404, 409, ...bodyErrors) },
});

export const checkoutCart = apiRoute({
  ...operation('carts', 'checkout', 'checkoutCart'),
  method: 'post',
  path: '/carts/{id}/checkout',
  tags,
  summary: 'Check out: place the order',
  description:
    'Places an order for the cart at the prices of this moment and marks the cart converted, atomically: stock is reserved in the same ' +
    'write, so the last units go to exactly one order and the rest get 409 naming the line and how many are left; when anything is refused ' +
    '(stock, a coupon used up meanwhile: 409) nothing is written and the cart stays as it was. An address no shipping zone serves, or a chosen ' +
    'shipping method that no longer serves the cart, is 422 SHIPPING_UNAVAILABLE naming `shippingAddress` or `shippingMethodId`. ' +
    "The body's email, addresses and notes apply to " +
    "this order only (the cart's otherwise; a customer's order uses the account email). A guest order needs an email and every order a " +
    'line (422). A cart is checked out once: a second checkout, even concurrent, is 409. Emits `order.placed`. Answers 201 with `Location: ' +
    `/api/orders/{orderId}\` and the order as \`GET /api/orders/{id}\` shows it. Takes \`Idempotency-Key\`. ${defaults} ${reach}`,
  policy: { access: access.public(), idempotency: { scope: [CART_TOKEN_HEADER] } },
  request: {
    params: CartParams,
    headers: CartTokenHeaders.extend(IdempotencyHeaders.shape),
    body: { ...jsonBody(CheckoutBody, 'Optional overrides for this order.'), required: false },
  },
  responses: { 201: successResponse(OrderSchema, 'The order.'), ...errorResponses(400, 401, 403, 404, 409, ...bodyErrors) },
});
