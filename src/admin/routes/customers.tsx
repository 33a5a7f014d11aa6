import { Hono } from 'hono';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../env';
import { actorRef, hasPermission, isStaff } from '../../lib/access';
import { ApiError } from '../../lib/errors';
import {
  addressRoutes,
  addressesService as addressService,
  customerTarget,
  type CustomerAction,
  customerListQuery,
  customersRoutes as routes,
  customersService as service,
  storeCreditListQuery,
  storeCreditRoutes as creditRoutes,
  storeCreditService as creditService,
} from '../../modules/customers';
import { CreateAddressBody, UpdateAddressBody, CreateCustomerBody, type Customer, UpdateCustomerBody, AdjustStoreCreditBody } from '../../modules/customers/schemas';
import { moneyOf } from '../money';
import { customerGroupListQuery, customerGroupsRoutes as groupRoutes, customerGroupsService as groupService } from '../../modules/customer-groups';
import { readReach, orderListQuery, listOrders } from '../../modules/orders';
import { emptyForm, type FormState } from '../components/form';
import { guard, page, sessionOf } from '../context';
import { checked, failure, failureStatus, num, orNull, type Posted, readForm, redirectWith, refill, str, validate } from '../form-data';
import { firstPage, listQuery, pageOf, parseList } from '../list';
import { AddressEditPage, type CustomerDetailForms, CustomerDetailPage, CustomerListPage } from '../pages/customers';

const HERE = '/admin/customers';
type C = Context<AppEnv>;

/**
 * As the API's customer handlers: customerTarget decides (staff need `customers:read` to read and
 * `customers:write` to change; anyone else gets the API's 403 / 404). The routes' own middleware
 * only asks for a credential, so this runs after guard(route).
 */
const reach = (action: CustomerAction): MiddlewareHandler<AppEnv> =>
  async function customerReach(c, next) {
    customerTarget(c.var.principal, c.req.param('id') ?? '', action);
    return next();
  };

/** A required text field as typed (trimmed): blank stays blank so the schema names the field. */
const text = (form: Posted, name: string) => form[name]?.[0]?.trim();

/** A failed form is shown again without the password typed into it. */
const withoutPassword = (form: Posted) => {
  const values = refill(form);
  delete values.password;
  return values;
};

const canWrite = (c: C) => hasPermission(c.var.principal, 'customers:write');

async function listPage(c: C, form: FormState, status = 200) {
  const { query, values } = listQuery(c, customerListQuery);
  const { items, total } = await service.listCustomers(c.var.db, query);
  const view = (
    <CustomerListPage customers={items} page={pageOf(query, total)} url={c.req.url} filters={emptyForm(values)} form={form} csrf={sessionOf(c).csrfToken} canWrite={canWrite(c)} />
  );
  return page(c, { title: 'Customers', active: HERE, status }, view);
}

const detailsOf = (customer: Customer) =>
  emptyForm({
    name: customer.name ?? '',
    email: customer.email,
    phone: customer.phone ?? '',
    status: customer.status,
    smsOptOut: customer.smsOptOut ? 'on' : '',
    marketingEmailOptOut: customer.marketingEmailOptOut ? 'on' : '',
  });

async function detailPage(c: C, id: string, failed: Partial<CustomerDetailForms> = {}, status = 200) {
  const target = customerTarget(c.var.principal, id, 'read');
  const [customer, addresses, orders, credit, groups, money] = await Promise.all([
    service.getCustomer(c.var.db, target.id),
    addressService.listAddresses(c.var.db, target.id),
    listOrders(c.var.db, parseList(orderListQuery, { customer: target.id, limit: '10' }), readReach(c.var.principal)),
    // Store credit is a permission resource of its own: shown to staff holding `store-credit:read` (or write).
    isStaff(c.var.principal, 'store-credit')
      ? creditService.getStoreCredit(c.var.db, target.id, parseList(storeCreditListQuery, { limit: '20' }), storeCreditListQuery)
      : undefined,
    groupService.listCustomerGroups(c.var.db, firstPage(customerGroupListQuery)),
    moneyOf(c.var.db),
  ]);
  const forms: CustomerDetailForms = {
    details: failed.details ?? detailsOf(customer),
    address: failed.address ?? emptyForm(),
    credit: failed.credit ?? emptyForm({ currency: credit?.balances[0]?.currency ?? '' }),
  };
  const view = (
    <CustomerDetailPage
      customer={customer}
      addresses={addresses}
      orders={orders.items}
      orderTotal={orders.total}
      credit={credit ? { balances: credit.balances, entries: credit.items, total: credit.total, canWrite: hasPermission(c.var.principal, 'store-credit:write') } : undefined}
      money={money}
      groups={groups.items}
      forms={forms}
      csrf={sessionOf(c).csrfToken}
      canWrite={canWrite(c)}
      maxAddresses={addressService.MAX_ADDRESSES_PER_CUSTOMER}
    />
  );
  return page(c, { title: customer.name ?? customer.email, active: HERE, status }, view);
}

async function addressPage(c: C, form: FormState | undefined, status = 200) {
  const id = c.req.param('id')!;
  const addressId = c.req.param('addressId')!;
  const target = customerTarget(c.var.principal, id, 'read');
  const [customer, address] = await Promise.all([service.getCustomer(c.var.db, target.id), addressService.getAddress(c.var.db, target.id, addressId)]);
  const values = form ?? emptyForm({ ...address, isDefaultShipping: address.isDefaultShipping ? 'on' : '', isDefaultBilling: address.isDefaultBilling ? 'on' : '' });
  const view = <AddressEditPage customer={customer} address={address} form={values} csrf={sessionOf(c).csrfToken} canWrite={canWrite(c)} />;
  return page(c, { title: `Address of ${customer.name ?? customer.email}`, active: HERE, status }, view);
}

/**
 * The API's refusals (403, 409) as a flash on `to`; an unknown customer or address stays a 404 page.
 * A form of one select (a group to join) shows its 422 and 404 (a group gone meanwhile) as the flash too.
 */
function refused(c: C, error: unknown, to: string, allAsFlash = false) {
  if (error instanceof ApiError && (allAsFlash || (error.code !== 'NOT_FOUND' && error.code !== 'VALIDATION_ERROR'))) return redirectWith(c, to, error.message, 'error');
  throw error;
}

const addressBody = (form: Posted, create: boolean) => {
  const optional = create ? str : orNull;
  return {
    firstName: optional(form, 'firstName'),
    lastName: optional(form, 'lastName'),
    company: optional(form, 'company'),
    line1: text(form, 'line1'),
    line2: optional(form, 'line2'),
    city: text(form, 'city'),
    region: optional(form, 'region'),
    postalCode: optional(form, 'postalCode'),
    country: text(form, 'country'),
    phone: optional(form, 'phone'),
    isDefaultShipping: checked(form, 'isDefaultShipping'),
    isDefaultBilling: checked(form, 'isDefaultBilling'),
  };
};

export const customerRoutes = new Hono<AppEnv>()
  .get('/', guard(routes.listCustomers), (c) => listPage(c, emptyForm({ status: 'active' })))
  // POST /api/customers: emits customer.registered through the service.
  .post('/', guard(routes.createCustomer), async (c) => {
    const form = await readForm(c);
    try {
      const body = {
        email: str(form, 'email'),
        name: str(form, 'name'),
        phone: str(form, 'phone'),
        status: str(form, 'status'),
        smsOptOut: checked(form, 'smsOptOut'),
        marketingEmailOptOut: checked(form, 'marketingEmailOptOut'),
        // Passwords are not trimmed: what was typed is the password. Blank: none (cannot sign in yet).
        password: form.password?.[0] ? form.password[0] : undefined,
      };
      const customer = await service.createCustomer(c.var.db, validate(CreateCustomerBody, body));
      return redirectWith(c, `${HERE}/${customer.id}`, `Customer ${customer.email} created.`);
    } catch (error) {
      return listPage(c, failure(error, withoutPassword(form)), failureStatus(error));
    }
  })
  // As GET /api/customers/{id}: staff reach any customer (the panel has no customers of its own).
  .get('/:id', guard(routes.listCustomers), (c) => detailPage(c, c.req.param('id')))
  // PATCH /api/customers/{id}, as staff: no current password; a new email retires the customer's sessions.
  .post('/:id', guard(routes.updateCustomer), reach('write'), async (c) => {
    const id = c.req.param('id');
    const form = await readForm(c);
    try {
      const body = {
        name: orNull(form, 'name'),
        email: text(form, 'email'),
        phone: orNull(form, 'phone'),
        status: str(form, 'status'),
        smsOptOut: checked(form, 'smsOptOut'),
        marketingEmailOptOut: checked(form, 'marketingEmailOptOut'),
      };
      const target = customerTarget(c.var.principal, id, 'write');
      const { row, emailChanged } = await service.updateCustomer(c.var.db, target, validate(UpdateCustomerBody, body));
      const note = emailChanged ? ' The email changed: the customer is signed out everywhere.' : '';
      return redirectWith(c, `${HERE}/${row.id}`, `Customer ${row.email} saved.${note}`);
    } catch (error) {
      return detailPage(c, id, { details: failure(error, refill(form)) }, failureStatus(error));
    }
  })
  // POST /api/customer-groups/{groupId}/members with this customer.
  .post('/:id/groups', guard(groupRoutes.addMembers), async (c) => {
    const id = c.req.param('id');
    const groupId = str(await readForm(c), 'groupId') ?? '';
    try {
      const group = await groupService.addMembers(c.var.db, groupId, [id]);
      return redirectWith(c, `${HERE}/${id}`, `Added to the group “${group.name}”.`);
    } catch (error) {
      return refused(c, error, `${HERE}/${id}`, true);
    }
  })
  // DELETE /api/customer-groups/{groupId}/members/{id}.
  .post('/:id/groups/:groupId/delete', guard(groupRoutes.removeMember), async (c) => {
    const id = c.req.param('id');
    try {
      await groupService.removeMember(c.var.db, c.req.param('groupId'), id);
    } catch (error) {
      return refused(c, error, `${HERE}/${id}`, true);
    }
    return redirectWith(c, `${HERE}/${id}`, 'Removed from the group.');
  })
  .post('/:id/delete', guard(routes.deleteCustomer), reach('delete'), async (c) => {
    const id = c.req.param('id');
    try {
      await service.deleteCustomer(c.var.db, customerTarget(c.var.principal, id, 'delete').id);
    } catch (error) {
      // 409: other records (orders) keep the customer; the API's message says to disable it instead.
      return refused(c, error, `${HERE}/${id}`);
    }
    return redirectWith(c, HERE, 'Customer deleted.');
  })
  // POST /api/customers/{id}/credit: emits store_credit.changed through the service.
  .post('/:id/credit', guard(creditRoutes.adjustStoreCredit), async (c) => {
    const id = c.req.param('id');
    const form = await readForm(c);
    try {
      const target = customerTarget(c.var.principal, id, 'write', 'store-credit');
      const input = validate(AdjustStoreCreditBody, { amount: num(form, 'amount'), currency: str(form, 'currency'), note: str(form, 'note') });
      await creditService.adjustStoreCredit(c.var.db, target.id, input, { actor: actorRef(c.var.principal) });
      return redirectWith(c, `${HERE}/${id}`, 'Store credit adjusted.');
    } catch (error) {
      return detailPage(c, id, { credit: failure(error, refill(form)) }, failureStatus(error));
    }
  })
  // POST /api/customers/{id}/addresses.
  .post('/:id/addresses', guard(addressRoutes.create), reach('write'), async (c) => {
    const id = c.req.param('id');
    const form = await readForm(c);
    try {
      const target = customerTarget(c.var.principal, id, 'write');
      await addressService.createAddress(c.var.db, target.id, validate(CreateAddressBody, addressBody(form, true)));
      return redirectWith(c, `${HERE}/${id}`, 'Address added.');
    } catch (error) {
      return detailPage(c, id, { address: failure(error, refill(form)) }, failureStatus(error));
    }
  })
  .get('/:id/addresses/:addressId', guard(addressRoutes.get), reach('read'), (c) => addressPage(c, undefined))
  // PATCH /api/customers/{id}/addresses/{addressId}.
  .post('/:id/addresses/:addressId', guard(addressRoutes.update), reach('write'), async (c) => {
    const id = c.req.param('id');
    const form = await readForm(c);
    try {
      const target = customerTarget(c.var.principal, id, 'write');
      await addressService.updateAddress(c.var.db, target.id, c.req.param('addressId'), validate(UpdateAddressBody, addressBody(form, false)));
      return redirectWith(c, `${HERE}/${id}`, 'Address saved.');
    } catch (error) {
      return addressPage(c, failure(error, refill(form)), failureStatus(error));
    }
  })
  // The same PATCH with only isDefaultShipping or isDefaultBilling: the others lose it in the same write.
  .post('/:id/addresses/:addressId/default', guard(addressRoutes.update), reach('write'), async (c) => {
    const id = c.req.param('id');
    const kind = str(await readForm(c), 'kind');
    const patch = kind === 'billing' ? { isDefaultBilling: true } : kind === 'shipping' ? { isDefaultShipping: true } : {};
    try {
      const target = customerTarget(c.var.principal, id, 'write');
      await addressService.updateAddress(c.var.db, target.id, c.req.param('addressId'), validate(UpdateAddressBody, patch));
    } catch (error) {
      return refused(c, error, `${HERE}/${id}`);
    }
    return redirectWith(c, `${HERE}/${id}`, kind === 'billing' ? 'Default billing address set.' : kind === 'shipping' ? 'Default shipping address set.' : 'Nothing to change.');
  })
  .post('/:id/addresses/:addressId/delete', guard(addressRoutes.delete), reach('write'), async (c) => {
    const id = c.req.param('id');
    try {
      const target = customerTarget(c.var.principal, id, 'write');
      await addressService.deleteAddress(c.var.db, target.id, c.req.param('addressId'));
    } catch (error) {
      return refused(c, error, `${HERE}/${id}`);
    }
    return redirectWith(c, `${HERE}/${id}`, 'Address deleted.');
  });
