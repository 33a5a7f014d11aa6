import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { hasPermission, isStaff, type Principal } from '../../lib/access';
import { inventoryListQuery, inventoryReach, listInventory } from '../../modules/inventory';
import { readReach, orderListQuery, listOrders } from '../../modules/orders';
import { webhookListQuery, listEndpoints } from '../../modules/webhooks';
import type { Database } from '../../db/client';
import { recoveredRevenue, isCartStaff } from '../../modules/carts';
import { salesReport } from '../../modules/reports';
import { getSettings } from '../../modules/settings';
import { page } from '../context';
import { firstPage, parseList } from '../list';
import { DashboardPage, type DashboardView } from '../pages/dashboard';
import { moneyOf } from '../money';
import { toMajor, toMinor } from '../../lib/money';

const seesOrders = (p: Principal) => isStaff(p, 'orders');
/** Recovered revenue is the whole store's: staff who read both orders and carts, never a vendor user. */
const seesRecovery = (p: Principal) => seesOrders(p) && isCartStaff(p, 'read') && !(p.kind !== 'anonymous' && p.vendorId);
const RECOVERY_DAYS = 30;
/** A currency's most minor-unit digits (currencies.minorUnits is at most 4). */
const SUM_DIGITS = 4;

async function today(db: Database, principal: Principal): Promise<DashboardView['today']> {
  const day = new Date().toISOString().slice(0, 10);
  const { items, total } = await listOrders(db, firstPage(orderListQuery, { created_after: day }), readReach(principal));
  // Summed in ten-thousandths, the most decimals a currency has, so no currency's last digit is rounded away.
  const revenue = new Map<string, number>();
  for (const o of items) {
    if (o.status === 'cancelled') continue;
    // A vendor user's total is already its own lines' (order-money.ts), not the order's.
    revenue.set(o.currency, (revenue.get(o.currency) ?? 0) + toMinor(o.total, SUM_DIGITS));
  }
  return { count: total, revenue: [...revenue].map(([currency, sum]) => [currency, toMajor(sum, SUM_DIGITS)]), partial: total > items.length };
}

/** Only what this user may see: each block is read through the same service and reach as the API. */
export const dashboardRoutes = new Hono<AppEnv>().get('/', async (c) => {
  const db = c.var.db;
  const p = c.var.principal;
  const orders = seesOrders(p);
  const money = moneyOf(db);
  const settings = getSettings(db);
  const [todays, toShip, unpaid, lowStock, endpoints, recovered, sales] = await Promise.all([
    orders ? today(db, p) : null,
    orders ? listOrders(db, parseList(orderListQuery, { status: 'processing', limit: '5', sort: 'created_at:asc' }), readReach(p)) : null,
    orders ? listOrders(db, parseList(orderListQuery, { status: 'pending', limit: '1' }), readReach(p)) : null,
    hasPermission(p, 'inventory:read') || hasPermission(p, 'products:write')
      ? listInventory(db, parseList(inventoryListQuery, { low: 'true', limit: '10' }), inventoryListQuery, inventoryReach(p))
      : null,
    hasPermission(p, 'webhooks:read') ? listEndpoints(db, firstPage(webhookListQuery)) : null,
    seesRecovery(p) ? recoveredRevenue(db, new Date(Date.now() - RECOVERY_DAYS * 86_400_000)) : null,
    hasPermission(p, 'reports:read') ? salesReport(db, { interval: 'day' }) : null,
  ]);
  const view: DashboardView = {
    money: await money,
    currency: (await settings).defaultCurrency,
    today: todays,
    toShip: toShip ? { total: toShip.total, orders: toShip.items } : null,
    unpaid: unpaid?.total ?? null,
    lowStock: lowStock ? { total: lowStock.total, items: lowStock.items } : null,
    failingWebhooks: endpoints ? endpoints.items.filter((e) => e.failingSince || e.disabledAt) : null,
    recovered: recovered ? { ...recovered, days: RECOVERY_DAYS } : null,
    sales: sales ? { currency: sales.currency, total: sales.totals.sales, orders: sales.totals.orders, days: sales.periods.map((d) => ({ day: d.start, sales: d.sales })) } : null,
  };
  return page(c, { title: 'Dashboard', active: '/admin' }, <DashboardPage {...view} />);
});
