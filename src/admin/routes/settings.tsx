import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { hasPermission } from '../../lib/access';
import { currencyListQuery } from '../../modules/settings/currencies.query';
import * as currencyRoutes from '../../modules/settings/currencies.routes';
import { CreateCurrencyBody } from '../../modules/settings/currencies.schemas';
import * as currencies from '../../modules/settings/currencies.service';
import * as routes from '../../modules/settings/settings.routes';
import { UpdateSettingsBody } from '../../modules/settings/settings.schemas';
import * as settings from '../../modules/settings/settings.service';
import { taxRateListQuery } from '../../modules/settings/taxes.query';
import * as taxRoutes from '../../modules/settings/taxes.routes';
import { CreateTaxRateBody } from '../../modules/settings/taxes.schemas';
import * as taxes from '../../modules/settings/taxes.service';
import { emptyForm, type FormState } from '../components/form';
import { guard, page, sessionOf } from '../context';
import { failure, failureStatus, num, numOrNull, orNull, readForm, redirectWith, refill, str, validate } from '../form-data';
import { firstPage, listQuery, pageOf } from '../list';
import { SettingsPage } from '../pages/settings';

const HERE = '/admin/settings';
type C = Context<AppEnv>;

async function show(c: C, forms: { store?: FormState; tax?: FormState; currency?: FormState } = {}, status = 200) {
  const db = c.var.db;
  const { query } = listQuery(c, taxRateListQuery);
  const [store, currencyList, taxList] = await Promise.all([
    forms.store ? null : settings.getSettings(db),
    currencies.listCurrencies(db, firstPage(currencyListQuery), true),
    taxes.listTaxRates(db, query),
  ]);
  const view = (
    <SettingsPage
      store={forms.store ?? emptyForm(store as unknown as Record<string, unknown>)}
      currencies={currencyList.items}
      taxes={taxList.items}
      taxPage={pageOf(query, taxList.total)}
      url={c.req.url}
      taxForm={forms.tax ?? emptyForm({ country: '' })}
      currencyForm={forms.currency ?? emptyForm({ minorUnits: 2 })}
      csrf={sessionOf(c).csrfToken}
      canWrite={hasPermission(c.var.principal, 'settings:write')}
    />
  );
  return page(c, { title: 'Settings', active: HERE, status }, view);
}

export const settingsRoutes = new Hono<AppEnv>()
  .get('/', guard(routes.getSettings), (c) => show(c))
  .post('/', guard(routes.updateSettings), async (c) => {
    const form = await readForm(c);
    try {
      const body = {
        name: str(form, 'name'),
        contactEmail: orNull(form, 'contactEmail'),
        defaultCurrency: str(form, 'defaultCurrency'),
        weightUnit: str(form, 'weightUnit'),
        lowStockThreshold: num(form, 'lowStockThreshold'),
        shippingFlatRate: num(form, 'shippingFlatRate'),
        freeShippingThreshold: numOrNull(form, 'freeShippingThreshold'),
      };
      await settings.updateSettings(c.var.db, validate(UpdateSettingsBody, body));
      return redirectWith(c, HERE, 'Settings saved.');
    } catch (error) {
      return show(c, { store: failure(error, refill(form)) }, failureStatus(error));
    }
  })
  .post('/currencies', guard(currencyRoutes.createCurrency), async (c) => {
    const form = await readForm(c);
    try {
      const body = { code: str(form, 'code'), name: str(form, 'name'), symbol: str(form, 'symbol'), minorUnits: num(form, 'minorUnits'), exchangeRate: num(form, 'exchangeRate') };
      const currency = await currencies.createCurrency(c.var.db, validate(CreateCurrencyBody, body));
      return redirectWith(c, `${HERE}#currencies`, `Currency ${currency.code} added.`);
    } catch (error) {
      return show(c, { currency: failure(error, refill(form)) }, failureStatus(error));
    }
  })
  .post('/taxes', guard(taxRoutes.createTaxRate), async (c) => {
    const form = await readForm(c);
    try {
      const body = { name: str(form, 'name'), country: str(form, 'country'), region: str(form, 'region'), rate: num(form, 'rate') };
      const rate = await taxes.createTaxRate(c.var.db, validate(CreateTaxRateBody, body));
      return redirectWith(c, `${HERE}#taxes`, `Tax rate “${rate.name}” added.`);
    } catch (error) {
      return show(c, { tax: failure(error, refill(form)) }, failureStatus(error));
    }
  })
  .post('/taxes/:id/delete', guard(taxRoutes.deleteTaxRate), async (c) => {
    await taxes.deleteTaxRate(c.var.db, c.req.param('id'));
    return redirectWith(c, `${HERE}#taxes`, 'Tax rate deleted.');
  });
