import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Sales by UTC day and currency, which the reports read instead of the orders: a year is at most
 * 366 rows a currency whatever the number of orders. Amounts are in the currency's minor units.
 *
 * Derived data kept by triggers (migrations/0041_sales_reports.sql) inside the statements that
 * place and cancel orders and complete refunds, so they commit or roll back with them and equal a
 * sum over the orders at every moment (test/reports/aggregates.test.ts checks it after random
 * writes). An order counts on the day it was placed, from placement until it is cancelled; a refund
 * on the day it completed. Never written by the application.
 */
export const salesDays = sqliteTable(
  'sales_days',
  {
    /** `YYYY-MM-DD`, UTC. */
    day: text('day').notNull(),
    currency: text('currency').notNull(),
    minorUnits: integer('minor_units').notNull(),
    orders: integer('orders').notNull().default(0),
    /** Orders that were their customer's first (orders.first_order): the customers new that day. */
    firstOrders: integer('first_orders').notNull().default(0),
    /** Order totals of those first orders. */
    firstOrderSales: integer('first_order_sales').notNull().default(0),
    units: integer('units').notNull().default(0),
    /** Line subtotals before discounts. */
    gross: integer('gross').notNull().default(0),
    discounts: integer('discounts').notNull().default(0),
    shipping: integer('shipping').notNull().default(0),
    tax: integer('tax').notNull().default(0),
    /** The part of `tax` inside line prices (orders whose prices include tax), so net can leave it out. */
    lineTaxIncluded: integer('line_tax_included').notNull().default(0),
    /** Order totals (gross - discounts + shipping, plus tax where it was added on top). */
    sales: integer('sales').notNull().default(0),
    refunds: integer('refunds').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.currency, t.day] })],
);

/** What the product tables keep per period, currency and product. */
const productSales = () => ({
  currency: text('currency').notNull(),
  productId: text('product_id').notNull(),
  /** The name on its latest order line (a deleted product keeps its name here). */
  name: text('name').notNull(),
  units: integer('units').notNull().default(0),
  /** Line subtotals less line discounts, without tax (the tax inside is taken out where prices included it). */
  revenue: integer('revenue').notNull().default(0),
  /** Order lines of the product. */
  lines: integer('lines').notNull().default(0),
});

/** Each product's sales by UTC day and currency, for top sellers; kept by the same triggers. */
export const productSalesDays = sqliteTable('product_sales_days', { day: text('day').notNull(), ...productSales() }, (t) => [
  primaryKey({ columns: [t.currency, t.day, t.productId] }),
]);

/**
 * The same by calendar month (`YYYY-MM`), so best sellers over a year sum 12 rows a product instead
 * of up to 365: whole months of a range are read here, its ragged ends from product_sales_days.
 */
export const productSalesMonths = sqliteTable('product_sales_months', { month: text('month').notNull(), ...productSales() }, (t) => [
  primaryKey({ columns: [t.currency, t.month, t.productId] }),
]);
