import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { PeriodReportQuery } from '../../modules/reports/schemas';
import { reportsRoutes as routes, reportsService as reports } from '../../modules/reports';
import { listCurrencies, currencyListQuery } from '../../modules/settings';
import { emptyForm } from '../components/form';
import { guard, page } from '../context';
import { failure, validate } from '../form-data';
import { firstPage } from '../list';
import { ReportsPage } from '../pages/reports';
import { moneyWith } from '../money';

const HERE = '/admin/reports';

/** The reports page: the API's four reports for one range, read through the same services. */
export const reportsRoutes = new Hono<AppEnv>().get('/', guard(routes.salesReport), async (c) => {
  const db = c.var.db;
  const values = Object.fromEntries(Object.entries(c.req.query()).filter(([, v]) => v.trim() !== ''));
  const listed = (await listCurrencies(db, firstPage(currencyListQuery), true)).items;
  const currencies = listed.map((cur) => cur.code);
  const money = moneyWith(new Map(listed.map((cur) => [cur.code, cur.minorUnits])));
  try {
    const query = validate(PeriodReportQuery, values);
    const [sales, customers, products, promotions] = await Promise.all([
      reports.salesReport(db, query),
      reports.customerReport(db, query),
      reports.productReport(db, { ...query, sort: 'revenue', limit: 10 }),
      reports.promotionReport(db, { ...query, limit: 10 }),
    ]);
    const form = emptyForm({ from: sales.from, to: sales.to, interval: sales.interval, currency: sales.currency });
    return page(
      c,
      { title: 'Reports', active: HERE },
      <ReportsPage form={form} money={money} currencies={currencies} sales={sales} customers={customers} products={products} promotions={promotions} />,
    );
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const view = <ReportsPage form={failure(error, values)} money={money} currencies={currencies} sales={null} customers={null} products={null} promotions={null} />;
    return page(c, { title: 'Reports', active: HERE, status: 400 }, view);
  }
});
