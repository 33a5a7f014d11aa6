import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { hasPermission } from '../../lib/access';
import {
  shippingMethodRoutes as methodRoutes,
  methodsService as methods,
  shippingZoneListQuery,
  shippingZoneRoutes as zoneRoutes,
  zonesService as zones,
} from '../../modules/shipping';
import {
  CreateShippingMethodBody,
  type ShippingMethod,
  UpdateShippingMethodBody,
  CreateShippingZoneBody,
  type ShippingZone,
  UpdateShippingZoneBody,
} from '../../modules/shipping/schemas';
import { getSettings } from '../../modules/settings';
import { emptyForm, type FormState } from '../components/form';
import { guard, page, sessionOf } from '../context';
import { currencyField, currencyRows, currencyValues, filledRows, otherCurrencies, withRowErrors } from '../currency-fields';
import { moneyOf } from '../money';
import { checked, failure, failureStatus, num, numOrNull, orNull, type Posted, readForm, redirectWith, refill, str, validate } from '../form-data';
import { firstPage } from '../list';
import { MethodEditPage, ShippingPage, ZoneEditPage } from '../pages/shipping';
import { bandsFromText, bandsToText, listFromText } from './shipping-form';

const HERE = '/admin/settings/shipping';
type C = Context<AppEnv>;

/** The store's default currency and weight unit, in which methods are priced and weighed. */
async function units(c: C) {
  const settings = await getSettings(c.var.db);
  return { currency: settings.defaultCurrency, weightUnit: settings.weightUnit };
}

async function show(c: C, zoneForm?: FormState, status = 200) {
  const db = c.var.db;
  const [list, byZone, { currency, weightUnit }, money] = await Promise.all([
    zones.listShippingZones(db, firstPage(shippingZoneListQuery)),
    methods.methodsByZone(db),
    units(c),
    moneyOf(db),
  ]);
  const withMethods = list.items.map((zone) => ({ zone, methods: byZone.get(zone.id) ?? [] }));
  const view = (
    <ShippingPage
      zones={withMethods}
      zoneForm={zoneForm ?? emptyForm()}
      currency={currency}
      weightUnit={weightUnit}
      money={money}
      csrf={sessionOf(c).csrfToken}
      canWrite={hasPermission(c.var.principal, 'settings:write')}
    />
  );
  return page(c, { title: 'Shipping', active: HERE, status }, view);
}

const zoneValues = (zone: ShippingZone) => ({
  name: zone.name,
  countries: zone.countries.join(', '),
  regions: zone.regions.join(', '),
  postcodes: zone.postcodes.join(', '),
  restOfWorld: zone.restOfWorld ? 'on' : '',
});

/** A rate as the form's fields: its type, the flat amount or the bands' lines. */
const rateValues = (rate: ShippingMethod['rate'], freeAbove: number | null) => ({
  rateType: rate.type,
  amount: rate.type === 'flat' ? rate.amount : '',
  bands: rate.type === 'flat' ? '' : bandsToText(rate),
  freeAbove,
});

const methodValues = (m: ShippingMethod) => ({
  ...m,
  active: m.active ? 'on' : '',
  ...rateValues(m.rate, m.freeAbove),
  ...currencyValues(m.currencyRates, (own) => rateValues(own.rate, own.freeAbove)),
});

async function zonePage(c: C, id: string, forms: { zone?: FormState; method?: FormState } = {}, status = 200) {
  const db = c.var.db;
  const [zone, list, { currency, weightUnit }, currencies, money] = await Promise.all([
    zones.getShippingZone(db, id),
    methods.listShippingMethods(db, id),
    units(c),
    otherCurrencies(db),
    moneyOf(db),
  ]);
  const view = (
    <ZoneEditPage
      zone={zone}
      methods={list}
      form={forms.zone ?? emptyForm(zoneValues(zone))}
      methodForm={forms.method ?? emptyForm({ rateType: 'flat', active: 'on', position: 0 })}
      weightUnit={weightUnit}
      currency={currency}
      money={money}
      currencies={currencies}
      csrf={sessionOf(c).csrfToken}
    />
  );
  return page(c, { title: `Shipping zone “${zone.name}”`, active: HERE, status }, view);
}

async function methodPage(c: C, zoneId: string, id: string, form?: FormState, status = 200) {
  const db = c.var.db;
  const [zone, method, { currency, weightUnit }, currencies] = await Promise.all([
    zones.getShippingZone(db, zoneId),
    methods.getShippingMethod(db, zoneId, id),
    units(c),
    otherCurrencies(db),
  ]);
  const view = (
    <MethodEditPage
      zone={zone}
      method={method}
      form={form ?? emptyForm(methodValues(method))}
      weightUnit={weightUnit}
      currency={currency}
      currencies={currencies}
      csrf={sessionOf(c).csrfToken}
    />
  );
  return page(c, { title: `Shipping method “${method.name}”`, active: HERE, status }, view);
}

const zoneBody = (form: Posted) => ({
  name: str(form, 'name') ?? '',
  countries: listFromText(str(form, 'countries')),
  regions: listFromText(str(form, 'regions')),
  postcodes: listFromText(str(form, 'postcodes'), /[,;\n]+/),
  restOfWorld: checked(form, 'restOfWorld'),
});

/** A rate from the form's fields (`name` gives a field's name: `bands`, or `bands.EUR` in a currency's row): the type, the flat amount or the bands' lines. */
function rateFrom(form: Posted, name: (field: string) => string = (field) => field) {
  const type = str(form, name('rateType'));
  if (type === 'flat') return { type, amount: num(form, name('amount')) ?? '' };
  if (type === 'weight' || type === 'price') return { type, bands: bandsFromText(type, str(form, name('bands')), name('bands')) };
  return { type };
}

/** A currency's row is an entry when its rate type is chosen. */
const RATE_ROW = ['rateType'];

/** The rows of the store's other currencies as `currencyRates`. */
const currencyRateRows = (form: Posted, currencies: string[]) =>
  currencyRows(form, currencies, RATE_ROW, (code) => ({
    rate: rateFrom(form, (field) => currencyField(field, code)),
    freeAbove: numOrNull(form, currencyField('freeAbove', code)),
  }));

/** The method's fields as the API takes them. */
function methodBody(form: Posted, currencies: string[]) {
  return {
    name: str(form, 'name') ?? '',
    carrier: orNull(form, 'carrier'),
    minDeliveryDays: numOrNull(form, 'minDeliveryDays'),
    maxDeliveryDays: numOrNull(form, 'maxDeliveryDays'),
    position: num(form, 'position') ?? 0,
    active: checked(form, 'active'),
    rate: rateFrom(form),
    freeAbove: numOrNull(form, 'freeAbove'),
    currencyRates: currencyRateRows(form, currencies),
  };
}

/** A rate's field names in the API (`rate.bands.1.upTo`, `rate.type`) as the form's (`bands`, `rateType`). */
const rateFieldOf = (name: string) => (name.startsWith('rate.bands') ? 'bands' : name === 'rate.amount' ? 'amount' : name.startsWith('rate') ? 'rateType' : name);

/** A band's problem names its line. */
const lineOf = (name: string, message: string) => {
  const band = /(?:^|\.)rate\.bands\.(\d+)/.exec(name);
  return band ? `line ${Number(band[1]) + 1}: ${message}` : message;
};

/** The API's field names as the form's, those of `currencyRates` as their currency's row's (`bands.EUR`). */
function methodFailure(error: unknown, form: Posted, currencies: string[]): FormState {
  const state = failure(error, refill(form));
  const lines = Object.fromEntries(Object.entries(state.errors).map(([name, message]) => [name, lineOf(name, message)]));
  const rows = withRowErrors({ ...state, errors: lines }, 'currencyRates', filledRows(form, currencies, RATE_ROW), rateFieldOf);
  const errors: Record<string, string> = {};
  for (const [name, message] of Object.entries(rows.errors)) errors[rateFieldOf(name)] ??= message;
  return { ...state, errors };
}

export const shippingRoutes = new Hono<AppEnv>()
  .get('/', guard(zoneRoutes.list), (c) => show(c))
  .post('/zones', guard(zoneRoutes.create), async (c) => {
    const form = await readForm(c);
    try {
      const zone = await zones.createShippingZone(c.var.db, validate(CreateShippingZoneBody, zoneBody(form)));
      return redirectWith(c, `${HERE}/zones/${zone.id}`, `Zone “${zone.name}” added: add its methods.`);
    } catch (error) {
      return show(c, failure(error, refill(form)), failureStatus(error));
    }
  })
  .get('/zones/:id', guard(zoneRoutes.update), (c) => zonePage(c, c.req.param('id')))
  .post('/zones/:id', guard(zoneRoutes.update), async (c) => {
    const id = c.req.param('id');
    const form = await readForm(c);
    try {
      const zone = await zones.updateShippingZone(c.var.db, id, validate(UpdateShippingZoneBody, zoneBody(form)));
      return redirectWith(c, HERE, `Zone “${zone.name}” saved.`);
    } catch (error) {
      return zonePage(c, id, { zone: failure(error, refill(form)) }, failureStatus(error));
    }
  })
  .post('/zones/:id/delete', guard(zoneRoutes.delete), async (c) => {
    await zones.deleteShippingZone(c.var.db, c.req.param('id'));
    return redirectWith(c, HERE, 'Zone deleted, with its methods.');
  })
  .post('/zones/:id/methods', guard(methodRoutes.create), async (c) => {
    const id = c.req.param('id');
    const form = await readForm(c);
    const currencies = await otherCurrencies(c.var.db);
    try {
      const method = await methods.createShippingMethod(c.var.db, id, validate(CreateShippingMethodBody, methodBody(form, currencies)));
      return redirectWith(c, `${HERE}/zones/${id}`, `Method “${method.name}” added.`);
    } catch (error) {
      return zonePage(c, id, { method: methodFailure(error, form, currencies) }, failureStatus(error));
    }
  })
  .get('/zones/:id/methods/:methodId', guard(methodRoutes.update), (c) => methodPage(c, c.req.param('id'), c.req.param('methodId')))
  .post('/zones/:id/methods/:methodId', guard(methodRoutes.update), async (c) => {
    const { id, methodId } = c.req.param();
    const form = await readForm(c);
    const currencies = await otherCurrencies(c.var.db);
    try {
      const method = await methods.updateShippingMethod(c.var.db, id, methodId, validate(UpdateShippingMethodBody, methodBody(form, currencies)));
      return redirectWith(c, `${HERE}/zones/${id}`, `Method “${method.name}” saved.`);
    } catch (error) {
      return methodPage(c, id, methodId, methodFailure(error, form, currencies), failureStatus(error));
    }
  })
  .post('/zones/:id/methods/:methodId/delete', guard(methodRoutes.delete), async (c) => {
    const { id, methodId } = c.req.param();
    await methods.deleteShippingMethod(c.var.db, id, methodId);
    return redirectWith(c, `${HERE}/zones/${id}`, 'Method deleted.');
  });
