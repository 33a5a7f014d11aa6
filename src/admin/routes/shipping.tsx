import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { hasPermission } from '../../lib/access';
import * as methodRoutes from '../../modules/shipping/methods.routes';
import { CreateShippingMethodBody, type ShippingMethod, UpdateShippingMethodBody } from '../../modules/shipping/methods.schemas';
import * as methods from '../../modules/shipping/methods.service';
import { shippingZoneListQuery } from '../../modules/shipping/zones.query';
import { shippingZoneRoutes as zoneRoutes } from '../../modules/shipping/zones.routes';
import { CreateShippingZoneBody, type ShippingZone, UpdateShippingZoneBody } from '../../modules/shipping/zones.schemas';
import * as zones from '../../modules/shipping/zones.service';
import { getSettings } from '../../modules/settings/settings.service';
import { emptyForm, type FormState } from '../components/form';
import { guard, page, sessionOf } from '../context';
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
  const [list, byZone, { currency }] = await Promise.all([zones.listShippingZones(db, firstPage(shippingZoneListQuery)), methods.methodsByZone(db), units(c)]);
  const withMethods = list.items.map((zone) => ({ zone, methods: byZone.get(zone.id) ?? [] }));
  const view = (
    <ShippingPage
      zones={withMethods}
      zoneForm={zoneForm ?? emptyForm()}
      currency={currency}
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

const methodValues = (m: ShippingMethod) => ({
  ...m,
  active: m.active ? 'on' : '',
  rateType: m.rate.type,
  amount: m.rate.type === 'flat' ? m.rate.amount : '',
  bands: m.rate.type === 'flat' ? '' : bandsToText(m.rate),
});

async function zonePage(c: C, id: string, forms: { zone?: FormState; method?: FormState } = {}, status = 200) {
  const db = c.var.db;
  const [zone, list, { currency, weightUnit }] = await Promise.all([zones.getShippingZone(db, id), methods.listShippingMethods(db, id), units(c)]);
  const view = (
    <ZoneEditPage
      zone={zone}
      methods={list}
      form={forms.zone ?? emptyForm(zoneValues(zone))}
      methodForm={forms.method ?? emptyForm({ rateType: 'flat', active: 'on', position: 0 })}
      weightUnit={weightUnit}
      currency={currency}
      csrf={sessionOf(c).csrfToken}
    />
  );
  return page(c, { title: `Shipping zone “${zone.name}”`, active: HERE, status }, view);
}

async function methodPage(c: C, zoneId: string, id: string, form?: FormState, status = 200) {
  const db = c.var.db;
  const [zone, method, { currency, weightUnit }] = await Promise.all([zones.getShippingZone(db, zoneId), methods.getShippingMethod(db, zoneId, id), units(c)]);
  const view = (
    <MethodEditPage zone={zone} method={method} form={form ?? emptyForm(methodValues(method))} weightUnit={weightUnit} currency={currency} csrf={sessionOf(c).csrfToken} />
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

/** The method's fields as the API takes them; the rate from the type, the flat amount or the bands' lines. */
function methodBody(form: Posted) {
  const type = str(form, 'rateType');
  const rate =
    type === 'flat' ? { type, amount: num(form, 'amount') ?? '' } : type === 'weight' || type === 'price' ? { type, bands: bandsFromText(type, str(form, 'bands')) } : { type };
  return {
    name: str(form, 'name') ?? '',
    carrier: orNull(form, 'carrier'),
    minDeliveryDays: numOrNull(form, 'minDeliveryDays'),
    maxDeliveryDays: numOrNull(form, 'maxDeliveryDays'),
    position: num(form, 'position') ?? 0,
    active: checked(form, 'active'),
    rate,
    freeAbove: numOrNull(form, 'freeAbove'),
  };
}

/** The API's field names (`rate.bands.1.upTo`, `rate.type`) as the form's (`bands`, `rateType`). */
function methodFailure(error: unknown, form: Posted): FormState {
  const state = failure(error, refill(form));
  const fieldOf = (name: string) => (name.startsWith('rate.bands') ? 'bands' : name === 'rate.amount' ? 'amount' : name.startsWith('rate') ? 'rateType' : name);
  const errors: Record<string, string> = {};
  for (const [name, message] of Object.entries(state.errors)) {
    const band = /^rate\.bands\.(\d+)/.exec(name);
    errors[fieldOf(name)] ??= band ? `line ${Number(band[1]) + 1}: ${message}` : message;
  }
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
  .post('/zones/:id/methods', guard(methodRoutes.createShippingMethod), async (c) => {
    const id = c.req.param('id');
    const form = await readForm(c);
    try {
      const method = await methods.createShippingMethod(c.var.db, id, validate(CreateShippingMethodBody, methodBody(form)));
      return redirectWith(c, `${HERE}/zones/${id}`, `Method “${method.name}” added.`);
    } catch (error) {
      return zonePage(c, id, { method: methodFailure(error, form) }, failureStatus(error));
    }
  })
  .get('/zones/:id/methods/:methodId', guard(methodRoutes.updateShippingMethod), (c) => methodPage(c, c.req.param('id'), c.req.param('methodId')))
  .post('/zones/:id/methods/:methodId', guard(methodRoutes.updateShippingMethod), async (c) => {
    const { id, methodId } = c.req.param();
    const form = await readForm(c);
    try {
      const method = await methods.updateShippingMethod(c.var.db, id, methodId, validate(UpdateShippingMethodBody, methodBody(form)));
      return redirectWith(c, `${HERE}/zones/${id}`, `Method “${method.name}” saved.`);
    } catch (error) {
      return methodPage(c, id, methodId, methodFailure(error, form), failureStatus(error));
    }
  })
  .post('/zones/:id/methods/:methodId/delete', guard(methodRoutes.deleteShippingMethod), async (c) => {
    const { id, methodId } = c.req.param();
    await methods.deleteShippingMethod(c.var.db, id, methodId);
    return redirectWith(c, `${HERE}/zones/${id}`, 'Method deleted.');
  });
