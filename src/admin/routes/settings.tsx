import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { hasPermission } from '../../lib/access';
import {
  currencyListQuery,
  currencyRoutes,
  currenciesService as currencies,
  settingsRoutes as routes,
  settingsService as settings,
  taxClassListQuery,
  taxClassesService as taxClasses,
  taxRateListQuery,
  taxRateRoutes as taxRoutes,
  taxesService as taxes,
} from '../../modules/settings';
import { CreateCurrencyBody, UpdateCurrencyBody, UpdateSettingsBody, CreateTaxRateBody, UpdateTaxRateBody } from '../../modules/settings/schemas';
import { emptyForm, type FormState } from '../components/form';
import { guard, page, sessionOf } from '../context';
import { checked, failure, failureStatus, num, numOrNull, orNull, type Posted, readForm, redirectWith, refill, str, validate } from '../form-data';
import { firstPage, listQuery, pageOf } from '../list';
import { CurrencyEditPage, SettingsPage, TaxRateEditPage } from '../pages/settings';

const HERE = '/admin/settings';
type C = Context<AppEnv>;

async function show(c: C, forms: { store?: FormState; tax?: FormState; currency?: FormState } = {}, status = 200) {
  const db = c.var.db;
  const { query } = listQuery(c, taxRateListQuery);
  const [store, currencyList, taxList, classList] = await Promise.all([
    forms.store ? null : settings.getSettings(db),
    currencies.listCurrencies(db, firstPage(currencyListQuery), true),
    taxes.listTaxRates(db, query),
    classesOf(c),
  ]);
  const view = (
    <SettingsPage
      store={forms.store ?? emptyForm({ ...store, allowedOrigins: store!.allowedOrigins.join('\n'), pricesIncludeTax: store!.pricesIncludeTax ? 'on' : '' })}
      currencies={currencyList.items}
      taxes={taxList.items}
      taxClasses={classList}
      taxPage={pageOf(query, taxList.total)}
      url={c.req.url}
      taxForm={forms.tax ?? emptyForm({ country: '', taxClass: 'standard' })}
      currencyForm={forms.currency ?? emptyForm({ minorUnits: 2 })}
      csrf={sessionOf(c).csrfToken}
      canWrite={hasPermission(c.var.principal, 'settings:write')}
    />
  );
  return page(c, { title: 'Settings', active: HERE, status }, view);
}

/** Every tax class, for the rates' class select and names. */
const classesOf = async (c: C) => (await taxClasses.listTaxClasses(c.var.db, firstPage(taxClassListQuery))).items;

const CHOICES: Record<string, boolean> = { yes: true, no: false };
/** The currency form's choice as `pricesIncludeTax`: blank follows the store (null), absent leaves it as it is, anything else goes on for the schema to refuse. */
function pricesIncludeTax(form: Posted) {
  if (!('pricesIncludeTax' in form)) return undefined;
  const choice = str(form, 'pricesIncludeTax');
  return choice === undefined ? null : (CHOICES[choice] ?? choice);
}
const choiceOf = (value: boolean | null) => (value === null ? '' : value ? 'yes' : 'no');

/** A field the API requires: blank goes on as '' for the schema to refuse next to the field, instead of leaving it unchanged. */
const required = (form: Posted, name: string) => num(form, name) ?? form[name]?.[0] ?? '';
const requiredText = (form: Posted, name: string) => form[name]?.[0] ?? '';

async function currencyPage(c: C, code: string, form?: FormState, status = 200) {
  const currency = await currencies.getCurrency(c.var.db, code);
  const values = { ...currency, enabled: currency.enabled ? 'on' : '', pricesIncludeTax: choiceOf(currency.pricesIncludeTax) };
  // A refused delete keeps the stored values in the form, with the API's message above it.
  const state = form && Object.keys(form.values).length === 0 ? { ...emptyForm(values), message: form.message } : (form ?? emptyForm(values));
  const view = <CurrencyEditPage currency={currency} form={state} csrf={sessionOf(c).csrfToken} />;
  return page(c, { title: `Currency ${currency.code}`, active: HERE, status }, view);
}

/** A refusal of the whole currency (409, e.g. the default one): the API's message above the form, not a field's. */
function currencyFailure(error: unknown, values: Record<string, unknown>): FormState {
  const state = failure(error, values);
  delete state.errors.code;
  return state;
}

async function taxPage(c: C, id: string, form?: FormState, status = 200) {
  const [rate, classList] = await Promise.all([taxes.getTaxRate(c.var.db, id), classesOf(c)]);
  const values = { ...rate, shippingTaxable: rate.shippingTaxable ? 'on' : '' };
  const view = <TaxRateEditPage rate={rate} taxClasses={classList} form={form ?? emptyForm(values)} csrf={sessionOf(c).csrfToken} />;
  return page(c, { title: `Tax rate “${rate.name}”`, active: HERE, status }, view);
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
        returnWindowDays: num(form, 'returnWindowDays'),
        pricesIncludeTax: checked(form, 'pricesIncludeTax'),
        // Shown only while the Standard shipping method they alias is there: sent only when shown.
        ...('shippingFlatRate' in form ? { shippingFlatRate: num(form, 'shippingFlatRate'), freeShippingThreshold: numOrNull(form, 'freeShippingThreshold') } : {}),
        // One origin a line (commas and spaces also separate).
        allowedOrigins: (str(form, 'allowedOrigins') ?? '').split(/[\s,]+/).filter(Boolean),
        apiVersion: str(form, 'apiVersion'),
      };
      await settings.updateSettings(c.var.db, validate(UpdateSettingsBody, body));
      return redirectWith(c, HERE, 'Settings saved.');
    } catch (error) {
      // An entry's message (`allowedOrigins.1`) goes next to the one field that holds them all.
      const state = failure(error, refill(form));
      for (const [name, message] of Object.entries(state.errors)) {
        if (name.startsWith('allowedOrigins.')) state.errors.allowedOrigins ??= message;
      }
      state.errors = Object.fromEntries(Object.entries(state.errors).filter(([name]) => !name.startsWith('allowedOrigins.')));
      return show(c, { store: state }, failureStatus(error));
    }
  })
  .post('/currencies', guard(currencyRoutes.create), async (c) => {
    const form = await readForm(c);
    try {
      const body = {
        code: str(form, 'code'),
        name: str(form, 'name'),
        symbol: str(form, 'symbol'),
        minorUnits: num(form, 'minorUnits'),
        exchangeRate: num(form, 'exchangeRate'),
        pricesIncludeTax: pricesIncludeTax(form),
      };
      const currency = await currencies.createCurrency(c.var.db, validate(CreateCurrencyBody, body));
      return redirectWith(c, `${HERE}#currencies`, `Currency ${currency.code} added.`);
    } catch (error) {
      return show(c, { currency: failure(error, refill(form)) }, failureStatus(error));
    }
  })
  .post('/taxes', guard(taxRoutes.create), async (c) => {
    const form = await readForm(c);
    try {
      const body = {
        name: str(form, 'name'),
        country: str(form, 'country'),
        region: str(form, 'region'),
        rate: num(form, 'rate'),
        taxClass: str(form, 'taxClass'),
        shippingTaxable: checked(form, 'shippingTaxable'),
      };
      const rate = await taxes.createTaxRate(c.var.db, validate(CreateTaxRateBody, body));
      return redirectWith(c, `${HERE}#taxes`, `Tax rate “${rate.name}” added.`);
    } catch (error) {
      return show(c, { tax: failure(error, refill(form)) }, failureStatus(error));
    }
  })
  .get('/currencies/:code', guard(currencyRoutes.update), (c) => currencyPage(c, c.req.param('code')))
  .post('/currencies/:code', guard(currencyRoutes.update), async (c) => {
    const code = c.req.param('code');
    const form = await readForm(c);
    try {
      const body = {
        name: requiredText(form, 'name'),
        symbol: requiredText(form, 'symbol'),
        minorUnits: required(form, 'minorUnits'),
        exchangeRate: required(form, 'exchangeRate'),
        enabled: checked(form, 'enabled'),
        pricesIncludeTax: pricesIncludeTax(form),
      };
      const currency = await currencies.updateCurrency(c.var.db, code, validate(UpdateCurrencyBody, body));
      return redirectWith(c, `${HERE}#currencies`, `Currency ${currency.code} saved.`);
    } catch (error) {
      return currencyPage(c, code, currencyFailure(error, refill(form)), failureStatus(error));
    }
  })
  .post('/currencies/:code/delete', guard(currencyRoutes.delete), async (c) => {
    const code = c.req.param('code');
    try {
      await currencies.deleteCurrency(c.var.db, code);
      return redirectWith(c, `${HERE}#currencies`, `Currency ${code.toUpperCase()} deleted.`);
    } catch (error) {
      return currencyPage(c, code, currencyFailure(error, {}), failureStatus(error));
    }
  })
  .get('/taxes/:id', guard(taxRoutes.update), (c) => taxPage(c, c.req.param('id')))
  .post('/taxes/:id', guard(taxRoutes.update), async (c) => {
    const id = c.req.param('id');
    const form = await readForm(c);
    try {
      const body = {
        name: requiredText(form, 'name'),
        country: str(form, 'country') ?? '',
        region: orNull(form, 'region'),
        rate: required(form, 'rate'),
        taxClass: str(form, 'taxClass'),
        shippingTaxable: checked(form, 'shippingTaxable'),
      };
      const rate = await taxes.updateTaxRate(c.var.db, id, validate(UpdateTaxRateBody, body));
      return redirectWith(c, `${HERE}#taxes`, `Tax rate “${rate.name}” saved.`);
    } catch (error) {
      return taxPage(c, id, failure(error, refill(form)), failureStatus(error));
    }
  })
  .post('/taxes/:id/delete', guard(taxRoutes.delete), async (c) => {
    await taxes.deleteTaxRate(c.var.db, c.req.param('id'));
    return redirectWith(c, `${HERE}#taxes`, 'Tax rate deleted.');
  });
