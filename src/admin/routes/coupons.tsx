import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { hasPermission } from '../../lib/access';
import { couponListQuery, couponRoutes as routes, couponsService as service } from '../../modules/coupons';
import { CreateCouponBody, UpdateCouponBody } from '../../modules/coupons/schemas';
import { getStoreCurrency } from '../../modules/settings';
import { emptyForm, type FormState } from '../components/form';
import { guard, page, sessionOf } from '../context';
import { AMOUNT_OFF_FIELDS, amountsOffRows, filledRows, otherCurrencies, withRowErrors } from '../currency-fields';
import { checked, endOfDay, failure, failureStatus, num, numOrNull, orNull, type Posted, readForm, redirectWith, refill, required, str, validate } from '../form-data';
import { listQuery, pageOf } from '../list';
import { CouponEditPage, CouponListPage, couponFormValues } from '../pages/coupons';

const HERE = '/admin/coupons';

async function show(c: Context<AppEnv>, form: FormState, status = 200) {
  const { query, values } = listQuery(c, couponListQuery);
  const [{ items, total }, store] = await Promise.all([service.listCoupons(c.var.db, query), getStoreCurrency(c.var.db)]);
  const view = (
    <CouponListPage
      coupons={items}
      store={store}
      page={pageOf(query, total)}
      url={c.req.url}
      filters={emptyForm(values)}
      form={form}
      csrf={sessionOf(c).csrfToken}
      canWrite={hasPermission(c.var.principal, 'coupons:write')}
    />
  );
  return page(c, { title: 'Coupons', active: HERE, status }, view);
}

/** A datetime-local value read as UTC (ISO); blank is null; anything else goes on as typed, for the schema to name. */
function instant(form: Posted, name: string): string | null {
  const text = str(form, name);
  if (text === undefined) return null;
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2}(\.\d{1,3})?)?$/.exec(text);
  return m ? `${m[1]}T${m[2]}${m[3] ?? ':00'}Z` : text;
}

const ids = (form: Posted, name: string) => (form[name] ?? []).flatMap((v) => v.split(/[\s,]+/)).filter(Boolean);

const requiredText = (form: Posted, name: string) => form[name]?.[0] ?? '';

/** The edit form as PATCH /api/coupons/{id}'s body: every field, blanks cleared (null). */
function updateBody(form: Posted, currencies: string[]) {
  return {
    code: requiredText(form, 'code'),
    type: str(form, 'type'),
    value: required(form, 'value'),
    minSubtotal: numOrNull(form, 'minSubtotal'),
    currencyAmounts: amountsOffRows(form, currencies),
    startsAt: instant(form, 'startsAt'),
    endsAt: instant(form, 'endsAt'),
    usageLimit: numOrNull(form, 'usageLimit'),
    usageLimitPerCustomer: numOrNull(form, 'usageLimitPerCustomer'),
    productIds: ids(form, 'productIds'),
    categoryIds: ids(form, 'categoryIds'),
    description: orNull(form, 'description'),
    active: checked(form, 'active'),
  };
}

async function editPage(c: Context<AppEnv>, id: string, form?: FormState, status = 200) {
  const [coupon, currencies] = await Promise.all([service.getCoupon(c.var.db, id), otherCurrencies(c.var.db)]);
  const canWrite = hasPermission(c.var.principal, 'coupons:write');
  const view = <CouponEditPage coupon={coupon} currencies={currencies} form={form ?? emptyForm(couponFormValues(coupon))} csrf={sessionOf(c).csrfToken} canWrite={canWrite} />;
  return page(c, { title: `Coupon ${coupon.code}`, active: HERE, status }, view);
}

export const couponRoutes = new Hono<AppEnv>()
  .get('/', guard(routes.list), (c) => show(c, emptyForm({ type: 'percentage' })))
  .post('/', guard(routes.create), async (c) => {
    const form = await readForm(c);
    try {
      const body = {
        code: str(form, 'code'),
        type: str(form, 'type'),
        value: num(form, 'value'),
        usageLimit: num(form, 'usageLimit'),
        endsAt: endOfDay(form, 'endsAt'),
        description: str(form, 'description'),
      };
      const coupon = await service.createCoupon(c.var.db, validate(CreateCouponBody, body));
      return redirectWith(c, HERE, `Coupon ${coupon.code} created.`);
    } catch (error) {
      return show(c, failure(error, refill(form)), failureStatus(error));
    }
  })
  .get('/:id', guard(routes.get), (c) => editPage(c, c.req.param('id')))
  .post('/:id', guard(routes.update), async (c) => {
    const id = c.req.param('id');
    const form = await readForm(c);
    const currencies = await otherCurrencies(c.var.db);
    try {
      const coupon = await service.updateCoupon(c.var.db, id, validate(UpdateCouponBody, updateBody(form, currencies)));
      return redirectWith(c, `${HERE}/${coupon.id}`, `Coupon ${coupon.code} saved.`);
    } catch (error) {
      const state = withRowErrors(failure(error, refill(form)), 'currencyAmounts', filledRows(form, currencies, AMOUNT_OFF_FIELDS), (rest) => rest);
      return editPage(c, id, state, failureStatus(error));
    }
  })
  .post('/:id/active', guard(routes.update), async (c) => {
    const active = str(await readForm(c), 'active') === 'true';
    const coupon = await service.updateCoupon(c.var.db, c.req.param('id'), { active });
    return redirectWith(c, HERE, `Coupon ${coupon.code} ${active ? 'activated' : 'deactivated'}.`);
  })
  .post('/:id/delete', guard(routes.delete), async (c) => {
    await service.deleteCoupon(c.var.db, c.req.param('id'));
    return redirectWith(c, HERE, 'Coupon deleted.');
  });
