import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { hasPermission } from '../../lib/access';
import { couponListQuery } from '../../modules/coupons/coupons.query';
import * as routes from '../../modules/coupons/coupons.routes';
import { CreateCouponBody } from '../../modules/coupons/coupons.schemas';
import * as service from '../../modules/coupons/coupons.service';
import { emptyForm, type FormState } from '../components/form';
import { guard, page, sessionOf } from '../context';
import { endOfDay, failure, failureStatus, num, readForm, redirectWith, refill, str, validate } from '../form-data';
import { listQuery, pageOf } from '../list';
import { CouponListPage } from '../pages/coupons';

const HERE = '/admin/coupons';

async function show(c: Context<AppEnv>, form: FormState, status = 200) {
  const { query, values } = listQuery(c, couponListQuery);
  const { items, total } = await service.listCoupons(c.var.db, query);
  const view = (
    <CouponListPage coupons={items} page={pageOf(query, total)} url={c.req.url} filters={emptyForm(values)} form={form} csrf={sessionOf(c).csrfToken} canWrite={hasPermission(c.var.principal, 'coupons:write')} />
  );
  return page(c, { title: 'Coupons', active: HERE, status }, view);
}

export const couponRoutes = new Hono<AppEnv>()
  .get('/', guard(routes.listCoupons), (c) => show(c, emptyForm({ type: 'percentage' })))
  .post('/', guard(routes.createCoupon), async (c) => {
    const form = await readForm(c);
    try {
      const body = { code: str(form, 'code'), type: str(form, 'type'), value: num(form, 'value'), usageLimit: num(form, 'usageLimit'), endsAt: endOfDay(form, 'endsAt'), description: str(form, 'description') };
      const coupon = await service.createCoupon(c.var.db, validate(CreateCouponBody, body));
      return redirectWith(c, HERE, `Coupon ${coupon.code} created.`);
    } catch (error) {
      return show(c, failure(error, refill(form)), failureStatus(error));
    }
  })
  .post('/:id/active', guard(routes.updateCoupon), async (c) => {
    const active = str(await readForm(c), 'active') === 'true';
    const coupon = await service.updateCoupon(c.var.db, c.req.param('id'), { active });
    return redirectWith(c, HERE, `Coupon ${coupon.code} ${active ? 'activated' : 'deactivated'}.`);
  })
  .post('/:id/delete', guard(routes.deleteCoupon), async (c) => {
    await service.deleteCoupon(c.var.db, c.req.param('id'));
    return redirectWith(c, HERE, 'Coupon deleted.');
  });
