import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { hasPermission } from '../../lib/access';
import { ApiError } from '../../lib/errors';
import { customerGroupListQuery, customerGroupsRoutes as routes, customerGroupsService as service } from '../../modules/customer-groups';
import { AddMembersBody, CreateCustomerGroupBody, UpdateCustomerGroupBody } from '../../modules/customer-groups/schemas';
import { customerListQuery, listCustomers } from '../../modules/customers';
import { emptyForm, type FormState } from '../components/form';
import { guard, page, sessionOf } from '../context';
import { failure, failureStatus, orNull, type Posted, readForm, redirectWith, refill, str, validate } from '../form-data';
import { listQuery, pageOf } from '../list';
import { CustomerGroupEditPage, CustomerGroupListPage } from '../pages/customer-groups';
import { listFromText } from './shipping-form';

const HERE = '/admin/customer-groups';
type C = Context<AppEnv>;

const canWrite = (c: C) => hasPermission(c.var.principal, 'customers:write');
const groupBody = (form: Posted, creating: boolean) => ({ name: str(form, 'name') ?? '', description: creating ? str(form, 'description') : orNull(form, 'description') });

async function listPage(c: C, form: FormState, status = 200) {
  const { query, values } = listQuery(c, customerGroupListQuery);
  const { items, total } = await service.listCustomerGroups(c.var.db, query);
  const view = (
    <CustomerGroupListPage
      groups={items}
      page={pageOf(query, total)}
      url={c.req.url}
      filters={emptyForm(values)}
      form={form}
      csrf={sessionOf(c).csrfToken}
      canWrite={canWrite(c)}
    />
  );
  return page(c, { title: 'Customer groups', active: HERE, status }, view);
}

async function editPage(c: C, id: string, failed: { form?: FormState; members?: FormState } = {}, status = 200) {
  const group = await service.getCustomerGroup(c.var.db, id);
  const { query } = listQuery(c, customerListQuery, { group: group.id });
  const members = await listCustomers(c.var.db, query);
  const view = (
    <CustomerGroupEditPage
      group={group}
      members={members.items}
      page={pageOf(query, members.total)}
      url={c.req.url}
      form={failed.form ?? emptyForm({ name: group.name, description: group.description ?? '' })}
      membersForm={failed.members ?? emptyForm()}
      csrf={sessionOf(c).csrfToken}
      canWrite={canWrite(c)}
    />
  );
  return page(c, { title: group.name, active: HERE, status }, view);
}

export const customerGroupRoutes = new Hono<AppEnv>()
  .get('/', guard(routes.customerGroupRoutes.list), (c) => listPage(c, emptyForm()))
  .post('/', guard(routes.customerGroupRoutes.create), async (c) => {
    const form = await readForm(c);
    try {
      const group = await service.createCustomerGroup(c.var.db, validate(CreateCustomerGroupBody, groupBody(form, true)));
      return redirectWith(c, `${HERE}/${group.id}`, `Customer group “${group.name}” created.`);
    } catch (error) {
      return listPage(c, failure(error, refill(form)), failureStatus(error));
    }
  })
  .get('/:id', guard(routes.customerGroupRoutes.get), (c) => editPage(c, c.req.param('id')))
  .post('/:id', guard(routes.customerGroupRoutes.update), async (c) => {
    const id = c.req.param('id');
    const form = await readForm(c);
    try {
      const group = await service.updateCustomerGroup(c.var.db, id, validate(UpdateCustomerGroupBody, groupBody(form, false)));
      return redirectWith(c, `${HERE}/${group.id}`, `Customer group “${group.name}” saved.`);
    } catch (error) {
      return editPage(c, id, { form: failure(error, refill(form)) }, failureStatus(error));
    }
  })
  .post('/:id/delete', guard(routes.customerGroupRoutes.delete), async (c) => {
    const id = c.req.param('id');
    try {
      await service.deleteCustomerGroup(c.var.db, id);
    } catch (error) {
      // 409: price lists are for the group; the API's message says what to do.
      if (!(error instanceof ApiError) || error.status !== 409) throw error;
      return redirectWith(c, `${HERE}/${id}`, error.message, 'error');
    }
    return redirectWith(c, HERE, 'Customer group deleted; its customers stay.');
  })
  .post('/:id/members', guard(routes.addMembers), async (c) => {
    const id = c.req.param('id');
    const form = await readForm(c);
    try {
      const group = await service.addMembers(c.var.db, id, validate(AddMembersBody, { customerIds: listFromText(str(form, 'customerIds')) }).customerIds);
      return redirectWith(c, `${HERE}/${id}`, `Customers added: ${group.memberCount} in the group.`);
    } catch (error) {
      return editPage(c, id, { members: failure(error, refill(form)) }, failureStatus(error));
    }
  })
  .post('/:id/members/:customerId/delete', guard(routes.removeMember), async (c) => {
    const id = c.req.param('id');
    await service.removeMember(c.var.db, id, c.req.param('customerId'));
    return redirectWith(c, `${HERE}/${id}`, 'Customer removed from the group.');
  });
