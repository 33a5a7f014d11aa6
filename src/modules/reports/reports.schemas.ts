import { z } from '@hono/zod-openapi';
import { CurrencyCode } from '../settings/schemas';

/** Shapes of the reports (src/modules/reports/): amounts in major units of the report's currency. */

export const INTERVALS = ['day', 'week', 'month'] as const;
export type Interval = (typeof INTERVALS)[number];

/** The longest range a report covers: ten years of days. */
export const MAX_REPORT_DAYS = 3660;
/** The range when none is given: the last 30 days, today included. */
export const DEFAULT_REPORT_DAYS = 30;

const Day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a day, YYYY-MM-DD')
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), 'must be a real day, YYYY-MM-DD');

const range = {
  from: Day.optional().openapi({ description: `First day, UTC, inclusive. Default: ${DEFAULT_REPORT_DAYS - 1} days before \`to\`.`, example: '2026-01-01' }),
  to: Day.optional().openapi({ description: 'Last day, UTC, inclusive. Default: today.', example: '2026-12-31' }),
  currency: CurrencyCode.optional().openapi({ description: "The currency reported (orders in others are left out). Default: the store's currency.", example: 'USD' }),
};

export const PeriodReportQuery = z.strictObject({
  ...range,
  interval: z.enum(INTERVALS).default('day').openapi({ description: 'One row per day, week (Monday to Sunday) or calendar month; the first and last are cut to the range.' }),
});
export type PeriodReportInput = z.infer<typeof PeriodReportQuery>;

/** How many rows a ranking report answers (the first `limit`: they do not page). */
const limit = (what: string) =>
  z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(10)
    .openapi({ description: `How many ${what}, 1 to 100.`, example: 10 });

export const ProductReportQuery = z.strictObject({
  ...range,
  sort: z.enum(['revenue', 'units']).default('revenue').openapi({ description: 'Best sellers by revenue (default) or by units.' }),
  limit: limit('products'),
});
export type ProductReportInput = z.infer<typeof ProductReportQuery>;

export const PromotionReportQuery = z.strictObject({ ...range, limit: limit('promotions') });
export type PromotionReportInput = z.infer<typeof PromotionReportQuery>;

const Money = z.number().openapi({ description: 'Amount in the major unit of the report currency.', example: 1234.5 });
const Count = z.number().int();

const SalesFigures = {
  orders: Count.openapi({ description: 'Orders placed (not cancelled since).' }),
  units: Count.openapi({ description: 'Units in those orders.' }),
  gross: Money.openapi({ description: 'Line subtotals before discounts, as priced (with the tax inside for orders whose prices include tax).' }),
  discounts: Money,
  shipping: Money,
  tax: Money.openapi({ description: 'Tax charged on lines and shipping, inside the prices or added to them.' }),
  taxIncluded: Money.openapi({ description: 'The part of tax that was inside line prices (orders whose prices include tax): in gross, left out of net.' }),
  refunds: Money.openapi({ description: 'Refunds completed in the period, whenever their orders were placed.' }),
  net: Money.openapi({ description: 'gross - discounts - taxIncluded - refunds: what the goods sold for, without tax.' }),
  sales: Money.openapi({ description: 'Order totals, what shoppers were charged: gross - discounts + shipping, plus tax where it was added on top.' }),
  averageOrderValue: Money.openapi({ description: 'sales / orders (0 without orders).' }),
};

const Period = {
  start: z.string().openapi({ example: '2026-11-02' }),
  end: z.string().openapi({ example: '2026-11-08' }),
};

const ReportRange = {
  currency: z.string().openapi({ example: 'USD' }),
  from: z.string().openapi({ example: '2026-11-01' }),
  to: z.string().openapi({ example: '2026-11-30' }),
};

export const SalesReportSchema = z
  .object({
    ...ReportRange,
    interval: z.enum(INTERVALS),
    totals: z.object(SalesFigures),
    periods: z.array(z.object({ ...Period, ...SalesFigures })).openapi({ description: 'Every period of the range, empty ones included, oldest first.' }),
  })
  .openapi('SalesReport');

const CustomerFigures = {
  newCustomers: Count.openapi({
    description: "Customers whose first order (no other order of theirs, not cancelled, when it was placed) is in the period: an account, or a guest's email.",
  }),
  returningOrders: Count.openapi({ description: 'The other orders: from customers who had ordered before.' }),
  newCustomerSales: Money.openapi({ description: 'Order totals of the first orders.' }),
  returningCustomerSales: Money.openapi({ description: 'Order totals of the other orders.' }),
};

export const CustomerReportSchema = z
  .object({
    ...ReportRange,
    interval: z.enum(INTERVALS),
    totals: z.object(CustomerFigures),
    periods: z.array(z.object({ ...Period, ...CustomerFigures })),
  })
  .openapi('CustomerReport');

export const ProductReportSchema = z
  .object({
    ...ReportRange,
    sort: z.enum(['revenue', 'units']),
    products: z.array(
      z.object({
        productId: z.string().openapi({ example: 'prod_01JD0000000000000000000000' }),
        name: z.string().openapi({ description: 'The name it was last sold under.' }),
        units: Count,
        revenue: Money.openapi({ description: 'Line subtotals less line discounts, before tax.' }),
        lines: Count.openapi({ description: 'Order lines of the product.' }),
      }),
    ),
  })
  .openapi('ProductReport');

export const PromotionReportSchema = z
  .object({
    ...ReportRange,
    promotions: z
      .array(
        z.object({
          promotionId: z
            .string()
            .openapi({ description: 'The promotion (or coupon) id, as orders keep it: it may since have been deleted.', example: 'promo_01JD0000000000000000000000' }),
          name: z.string().openapi({ description: 'The name it was last applied under (a coupon: its code).', example: 'Summer sale' }),
          code: z.string().nullable().openapi({ description: 'The code shoppers entered, as last applied; null for an automatic promotion.', example: null }),
          orders: Count.openapi({ description: 'Orders that applied it.' }),
          discountTotal: Money.openapi({ description: 'All it took off those orders, lines and shipping.' }),
          shippingDiscount: Money.openapi({ description: 'The part of discountTotal taken off shipping.' }),
          sales: Money.openapi({ description: 'Order totals of those orders, what shoppers were charged.' }),
        }),
      )
      .openapi({ description: 'The promotions that took the most off, most first (ties by id).' }),
  })
  .openapi('PromotionReport');

export type SalesReport = z.infer<typeof SalesReportSchema>;
export type CustomerReport = z.infer<typeof CustomerReportSchema>;
export type ProductReport = z.infer<typeof ProductReportSchema>;
export type PromotionReport = z.infer<typeof PromotionReportSchema>;
