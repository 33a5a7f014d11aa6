/**
 * What the promotion engine (promotion-engine.ts) reads and answers: a promotion as the engine needs
 * it, the cart it prices, and the result. Plain data, no database types: the callers (quote,
 * checkout) load promotions and build the context. The rules are in docs/promotions.md.
 */

import { PROMOTION_TYPES } from '../../db/schema/promotions';
import { NOT_APPLICABLE_CONDITIONS } from '../../lib/errors';

export { PROMOTION_TYPES };
export type PromotionType = (typeof PROMOTION_TYPES)[number];

/** `order`: every line not excluded is discounted; `items`: only the lines matching the promotion's products, categories and brands. */
export type PromotionTarget = 'order' | 'items';

/** A set of products by id, category (a line's categories include their ancestors) or brand; empty lists: every product. */
export interface ProductSet {
  productIds: readonly string[];
  categoryIds: readonly string[];
  brandIds: readonly string[];
}

/** Every `buy.quantity` units bought from `buy` entitle up to `get.quantity` units of `get`, `get.percent` off. */
export interface BuyXGetY {
  buy: ProductSet & { quantity: number };
  /** An empty set stands for the `buy` set ("buy 2 socks, get the third free"). */
  get: ProductSet & { quantity: number; percent: string };
}

export interface FreeShipping {
  /** When non-empty, only these shipping methods / zones are made free. */
  methodIds: readonly string[];
  zoneIds: readonly string[];
}

export interface PromotionConditions {
  /** Minimum cart subtotal before any discount, in minor units of the default currency (converted; `currencyAmounts` wins). */
  minSubtotal: number | null;
  /** Minimum number of units of the matching lines. */
  minQuantity: number | null;
  /** Lines that match (empty lists: every line); for `items` promotions, the lines discounted. */
  include: ProductSet;
  /** Lines never discounted by the promotion and never counted as matching. */
  exclude: ProductSet;
  /** When non-empty, only customers in one of these groups. */
  customerGroupIds: readonly string[];
  /** When non-empty, only carts in one of these currencies (codes). */
  currencies: readonly string[];
  /** ISO 8601 times; the promotion runs from `startsAt` (inclusive) to `endsAt` (exclusive). */
  startsAt: string | null;
  endsAt: string | null;
  timesUsed: number;
  usageLimit: number | null;
  /** Orders of this customer (or guest email) that already used the promotion. */
  usesByCustomer: number;
  perCustomerLimit: number | null;
}

export interface Promotion {
  id: string;
  name: string;
  /** Upper case; null: automatic (applies without a code). */
  code: string | null;
  type: PromotionType;
  /**
   * `percentage`: the percent off, decimal text (`12.5`). `fixed`: the amount off in minor units of
   * the default currency, integer text. `buy_x_get_y`, `free_shipping`: unused (`0`).
   */
  value: string;
  /** A fixed promotion's amount and minimum subtotal set by the shop in other currencies (minor units of that currency); others are converted. */
  currencyAmounts: Readonly<Record<string, { value: number; minSubtotal: number | null }>>;
  target: PromotionTarget;
  buyXGetY: BuyXGetY | null;
  freeShipping: FreeShipping | null;
  conditions: PromotionConditions;
  /** Higher applies first. */
  priority: number;
  /** Whether it may apply together with automatic promotions / with code promotions. */
  combinesWithPromotions: boolean;
  combinesWithCodes: boolean;
}

export interface CartLine {
  /** The caller's handle for the line; unique in a cart. Allocation order follows it, not the input order. */
  key: string;
  productId: string;
  /** The product's categories and their ancestors. */
  categoryIds: readonly string[];
  brandId: string | null;
  /** Minor units of the cart's currency. */
  unitPrice: number;
  quantity: number;
}

export interface PromotionContext {
  lines: readonly CartLine[];
  /** Minor-unit digits of the default currency, in which fixed amounts and minimum subtotals are kept. */
  defaultMinorUnits: number;
  /** The cart's currency; `exchangeRate`: its units per unit of the default currency, as decimal text. */
  currency: { code: string; minorUnits: number; exchangeRate: string };
  customerGroupIds: readonly string[];
  now: Date;
  /**
   * The chosen shipping, or null (none chosen yet). `priceFor` answers the shipping price (minor
   * units of the cart's currency) for a subtotal after line discounts; it must be pure, as the
   * engine asks it once per combination it weighs.
   */
  shipping: { methodId: string; zoneId: string; priceFor: (discountedSubtotal: number) => number } | null;
  /** Codes the customer entered, upper case. */
  codes: readonly string[];
}

export { NOT_APPLICABLE_CONDITIONS };
export type NotApplicableCondition = (typeof NOT_APPLICABLE_CONDITIONS)[number];

export interface NotApplicable {
  code: string;
  condition: NotApplicableCondition;
  /** Words for the shopper, starting with the code: "Code 'SAVE10' needs a subtotal of at least 50.00 EUR". */
  message: string;
}

export interface LineDiscount {
  promotionId: string;
  name: string;
  amount: number;
}

export interface PromotedLine {
  key: string;
  subtotal: number;
  /** Sum of `promotions`' amounts; never more than `subtotal`. */
  discount: number;
  promotions: LineDiscount[];
}

export interface AppliedPromotion {
  promotionId: string;
  name: string;
  code: string | null;
  /** Its line allocations plus what it took off shipping. */
  amount: number;
  /** The part of `amount` taken off shipping. */
  shippingAmount: number;
}

export interface PromotionResult {
  /** In the order of the context's lines. */
  lines: PromotedLine[];
  subtotal: number;
  lineDiscountTotal: number;
  /** The shipping price for the discounted subtotal (0 without shipping), and how much of it the promotions took. */
  shippingPrice: number;
  shippingDiscount: number;
  /** In the order they were applied. */
  applied: AppliedPromotion[];
  /** One per entered code that does not apply, in the order the codes were entered. */
  notApplicable: NotApplicable[];
}
