import { Hono } from 'hono';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../env';
import { hasPermission, vendorScope } from '../../lib/access';
import { ApiError } from '../../lib/errors';
import { vendorListQuery, vendorRoutes as routes, vendorsService as service } from '../../modules/vendors';
import { CreateVendorBody, UpdateVendorBody } from '../../modules/vendors/schemas';
import { emptyForm, type FormState } from '../components/form';
import { guard, page, sessionOf } from '../context';
import { failure, failureStatus, orNull, type Posted, readForm, redirectWith, refill, str, validate } from '../form-data';
import { listQuery, pageOf } from '../list';
import { VendorEditPage, VendorListPage } from '../pages/vendors';

const HERE = '/admin/vendors';
type C = Context<AppEnv>;

/** As the API's list: `vendors:read`, and never a vendor user (it reads only its own vendor). */
const readers = guard({
  middleware: [
    ...((routes.list as { middleware?: MiddlewareHandler<AppEnv>[] }).middleware ?? []),
    async (c, next) => {
      if (vendorScope(c.var.principal) !== null) throw ApiError.forbidden('A vendor user reads only its own vendor, at /api/vendors/{id}');
      return next();
    },
  ],
});

/** The vendor form as the API's body: blanks left out when creating, cleared (null) when editing. */
function vendorBody(form: Posted, creating: boolean) {
  const clear = creating ? (name: string) => str(form, name) : (name: string) => orNull(form, name);
  return { name: str(form, 'name'), slug: str(form, 'slug'), email: clear('email'), description: clear('description'), status: str(form, 'status') };
}

const canWrite = (c: C) => hasPermission(c.var.principal, 'vendors:write');

async function listPage(c: C, form: FormState, status = 200) {
  const { query, values } = listQuery(c, vendorListQuery);
  const { items, total } = await service.listVendors(c.var.db, query);
  const view = (
    <VendorListPage vendors={items} page={pageOf(query, total)} url={c.req.url} filters={emptyForm(values)} form={form} csrf={sessionOf(c).csrfToken} canWrite={canWrite(c)} />
  );
  return page(c, { title: 'Vendors', active: HERE, status }, view);
}

async function editPage(c: C, id: string, form?: FormState, status = 200) {
  const vendor = await service.getVendor(c.var.db, id);
  const view = <VendorEditPage vendor={vendor} form={form ?? emptyForm(vendor)} csrf={sessionOf(c).csrfToken} canWrite={canWrite(c)} />;
  return page(c, { title: vendor.name, active: HERE, status }, view);
}

export const vendorRoutes = new Hono<AppEnv>()
  .get('/', readers, (c) => listPage(c, emptyForm({ status: 'active' })))
  .post('/', guard(routes.create), async (c) => {
    const form = await readForm(c);
    try {
      const vendor = await service.createVendor(c.var.db, validate(CreateVendorBody, vendorBody(form, true)));
      return redirectWith(c, `${HERE}/${vendor.id}`, `Vendor “${vendor.name}” created.`);
    } catch (error) {
      return listPage(c, failure(error, refill(form)), failureStatus(error));
    }
  })
  .get('/:id', readers, (c) => editPage(c, c.req.param('id')))
  .post('/:id', guard(routes.update), async (c) => {
    const id = c.req.param('id');
    const form = await readForm(c);
    try {
      const vendor = await service.updateVendor(c.var.db, id, validate(UpdateVendorBody, vendorBody(form, false)));
      return redirectWith(c, `${HERE}/${vendor.id}`, 'Vendor saved.');
    } catch (error) {
      return editPage(c, id, failure(error, refill(form)), failureStatus(error));
    }
  })
  /** Suspend or reactivate: the API's update of `status` alone. */
  .post('/:id/status', guard(routes.update), async (c) => {
    const { status } = validate(UpdateVendorBody, { status: str(await readForm(c), 'status') });
    const vendor = await service.updateVendor(c.var.db, c.req.param('id'), { status });
    const done = vendor.status === 'suspended' ? 'suspended: its users are refused until it is reactivated' : 'active again';
    return redirectWith(c, `${HERE}/${vendor.id}`, `Vendor “${vendor.name}” is ${done}.`);
  })
  .post('/:id/delete', guard(routes.delete), async (c) => {
    const vendor = await service.getVendor(c.var.db, c.req.param('id'));
    try {
      await service.deleteVendor(c.var.db, vendor.id);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'CONFLICT') return redirectWith(c, `${HERE}/${vendor.id}`, error.message, 'error');
      throw error;
    }
    return redirectWith(c, HERE, `Vendor “${vendor.name}” deleted; its products stay, without a vendor.`);
  });
