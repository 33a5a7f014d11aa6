import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { hasPermission } from '../../lib/access';
import { ApiError } from '../../lib/errors';
import { brandListQuery, listBrands } from '../../modules/brands';
import { categoryListQuery, listCategories } from '../../modules/categories';
import { customerGroupListQuery, listCustomerGroups } from '../../modules/customer-groups';
import { promotionListQuery, promotionRoutes as routes, promotionsService as service } from '../../modules/promotions';
import { CreatePromotionBody, UpdatePromotionBody } from '../../modules/promotions/schemas';
import { getStoreCurrency, getStoreCurrencies } from '../../modules/settings';
import { methodsByZone, shippingZoneListQuery, listShippingZones } from '../../modules/shipping';
import { utcInstant } from '../components/content';
import { emptyForm, type FormState } from '../components/form';
import { guard, page, sessionOf } from '../context';
import { AMOUNT_OFF_FIELDS, amountsOffRows, filledRows, withRowErrors } from '../currency-fields';
import { all, checked, failure, failureStatus, num, numOrNull, orNull, type Posted, readForm, redirectWith, refill, required, str, validate } from '../form-data';
import { firstPage, listQuery, pageOf } from '../list';
import { CHECKBOX_GROUPS, type PromotionChoices, PromotionFormPage, PromotionListPage, promotionFormValues } from '../pages/promotions';
import { listFromText } from './shipping-form';

const HERE = '/admin/promotions';
type C = Context<AppEnv>;

const canWrite = (c: C) => hasPermission(c.var.principal, 'promotions:write');

async function choices(c: C): Promise<PromotionChoices> {
  const db = c.var.db;
  const [categories, brands, groups, zones, methods, store] = await Promise.all([
    listCategories(db, firstPage(categoryListQuery)),
    listBrands(db, firstPage(brandListQuery)),
    listCustomerGroups(db, firstPage(customerGroupListQuery)),
    listShippingZones(db, firstPage(shippingZoneListQuery)),
    methodsByZone(db),
    getStoreCurrencies(db),
  ]);
  const pairs = (rows: { id: string; name: string }[]): [string, string][] => rows.map((r) => [r.id, r.name]);
  const currencies = [...store.digits.keys()].sort();
  return {
    categories: pairs(categories.items),
    brands: pairs(brands.items),
    groups: pairs(groups.items),
    zones: pairs(zones.items),
    methods: zones.items.flatMap((zone) => (methods.get(zone.id) ?? []).map((m): [string, string] => [m.id, `${zone.name}: ${m.name}`])),
    currencies,
    otherCurrencies: currencies.filter((code) => code !== store.default.code),
  };
}

/** A product set's fields (`include.productIds`, typed; `include.categoryIds`, chosen; ...) as the API's. */
const productSet = (form: Posted, at: string) => ({
  productIds: listFromText(str(form, `${at}.productIds`)),
  categoryIds: all(form, `${at}.categoryIds`),
  brandIds: all(form, `${at}.brandIds`),
});
const anyIds = (set: ReturnType<typeof productSet>) => Object.values(set).some((ids) => ids.length > 0);

/** The buy-x-get-y fields, sent for that type or when any is filled (for the API to refuse with another type); else none. */
function buyXGetY(form: Posted) {
  const buy = productSet(form, 'buyXGetY.buy');
  const got = productSet(form, 'buyXGetY.get');
  const numbers = ['buyXGetY.buy.quantity', 'buyXGetY.get.quantity', 'buyXGetY.get.percent'];
  const filled = str(form, 'type') === 'buy_x_get_y' || anyIds(buy) || anyIds(got) || numbers.some((name) => str(form, name) !== undefined);
  if (!filled) return null;
  return {
    buy: { quantity: required(form, 'buyXGetY.buy.quantity'), ...buy },
    get: { quantity: required(form, 'buyXGetY.get.quantity'), percent: num(form, 'buyXGetY.get.percent'), ...got },
  };
}

/** The chosen methods and zones; none chosen: null (a free_shipping promotion is then free on any). */
function freeShipping(form: Posted) {
  const limits = { methodIds: all(form, 'freeShipping.methodIds'), zoneIds: all(form, 'freeShipping.zoneIds') };
  return limits.methodIds.length || limits.zoneIds.length ? limits : null;
}

/**
 * The form as the API's body, every field (blanks cleared), for creating and editing alike: the
 * service judges it, as it does the API's.
 */
function promotionBody(form: Posted, otherCurrencies: string[]) {
  return {
    name: form.name?.[0] ?? '',
    description: orNull(form, 'description'),
    code: orNull(form, 'code'),
    type: str(form, 'type'),
    value: num(form, 'value'),
    currencyAmounts: amountsOffRows(form, otherCurrencies, num),
    target: str(form, 'target'),
    buyXGetY: buyXGetY(form),
    freeShipping: freeShipping(form),
    minSubtotal: numOrNull(form, 'minSubtotal'),
    minQuantity: numOrNull(form, 'minQuantity'),
    include: productSet(form, 'include'),
    exclude: productSet(form, 'exclude'),
    customerGroupIds: all(form, 'customerGroupIds'),
    currencies: all(form, 'currencies'),
    startsAt: utcInstant(form, 'startsAt') ?? null,
    endsAt: utcInstant(form, 'endsAt') ?? null,
    usageLimit: numOrNull(form, 'usageLimit'),
    perCustomerLimit: numOrNull(form, 'perCustomerLimit'),
    priority: num(form, 'priority'),
    combinesWithPromotions: checked(form, 'combinesWithPromotions'),
    combinesWithCodes: checked(form, 'combinesWithCodes'),
    active: checked(form, 'active'),
  };
}

/** A failed form refilled, the API's errors of `currencyAmounts.N.value` under their currency's row. */
const failed = (error: unknown, form: Posted, otherCurrencies: string[]) =>
  withRowErrors(failure(error, refill(form, CHECKBOX_GROUPS)), 'currencyAmounts', filledRows(form, otherCurrencies, AMOUNT_OFF_FIELDS), (rest) => rest);

async function listPage(c: C) {
  const { query, values } = listQuery(c, promotionListQuery);
  const [{ items, total }, store] = await Promise.all([service.listPromotions(c.var.db, query), getStoreCurrency(c.var.db)]);
  const view = (
    <PromotionListPage
      promotions={items}
      store={store}
      page={pageOf(query, total)}
      url={c.req.url}
      filters={emptyForm(values)}
      csrf={sessionOf(c).csrfToken}
      canWrite={canWrite(c)}
    />
  );
  return page(c, { title: 'Promotions', active: HERE, status: 200 }, view);
}

async function newPage(c: C, form: FormState, status = 200, known?: PromotionChoices) {
  const view = <PromotionFormPage choices={known ?? (await choices(c))} form={form} csrf={sessionOf(c).csrfToken} canWrite={canWrite(c)} />;
  return page(c, { title: 'New promotion', active: HERE, status }, view);
}

async function editPage(c: C, id: string, form?: FormState, status = 200, known?: PromotionChoices) {
  const [promotion, options] = await Promise.all([service.getPromotion(c.var.db, id), known ?? choices(c)]);
  // A coupon is edited on its own page, with a coupon's fields.
  if (promotion.isCoupon) return c.redirect(`/admin/coupons/${promotion.id}`, 303);
  const view = (
    <PromotionFormPage promotion={promotion} choices={options} form={form ?? emptyForm(promotionFormValues(promotion))} csrf={sessionOf(c).csrfToken} canWrite={canWrite(c)} />
  );
  return page(c, { title: promotion.name, active: HERE, status }, view);
}

export const promotionRoutes = new Hono<AppEnv>()
  .get('/', guard(routes.list), (c) => listPage(c))
  .get('/new', guard(routes.create), (c) => newPage(c, emptyForm({ type: 'percentage', target: 'order', active: 'on' })))
  .post('/', guard(routes.create), async (c) => {
    const [form, options] = await Promise.all([readForm(c), choices(c)]);
    try {
      const promotion = await service.createPromotion(c.var.db, validate(CreatePromotionBody, promotionBody(form, options.otherCurrencies)));
      return redirectWith(c, `${HERE}/${promotion.id}`, `Promotion “${promotion.name}” created.`);
    } catch (error) {
      return newPage(c, failed(error, form, options.otherCurrencies), failureStatus(error), options);
    }
  })
  .get('/:id', guard(routes.get), (c) => editPage(c, c.req.param('id')))
  .post('/:id', guard(routes.update), async (c) => {
    const id = c.req.param('id');
    const [form, options] = await Promise.all([readForm(c), choices(c)]);
    try {
      const promotion = await service.updatePromotion(c.var.db, id, validate(UpdatePromotionBody, promotionBody(form, options.otherCurrencies)));
      return redirectWith(c, `${HERE}/${promotion.id}`, `Promotion “${promotion.name}” saved.`);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'NOT_FOUND') throw error;
      return editPage(c, id, failed(error, form, options.otherCurrencies), failureStatus(error), options);
    }
  })
  .post('/:id/delete', guard(routes.delete), async (c) => {
    await service.deletePromotion(c.var.db, c.req.param('id'));
    return redirectWith(c, HERE, 'Promotion deleted.');
  });
