import { created, list, noContent, ok, pagination } from '../../lib/envelope';
import type { AppRouteHandler } from '../../lib/openapi';
import { project } from '../../lib/query';
import * as service from './addresses.service';
import { customerTarget } from './customers.access';
import type * as routes from './addresses.routes';

export const listAddresses: AppRouteHandler<typeof routes.listAddresses> = async (c) => {
  const target = customerTarget(c.var.principal, c.req.valid('param').id, 'read');
  const { fields } = c.req.valid('query');
  const items = await service.listAddresses(c.var.db, target.id);
  return list(
    c,
    items.map((a) => project(a, fields)),
    pagination(1, service.MAX_ADDRESSES_PER_CUSTOMER, items.length),
  );
};

export const getAddress: AppRouteHandler<typeof routes.getAddress> = async (c) => {
  const { id, addressId } = c.req.valid('param');
  const target = customerTarget(c.var.principal, id, 'read');
  return ok(c, project(await service.getAddress(c.var.db, target.id, addressId), c.req.valid('query').fields));
};

export const createAddress: AppRouteHandler<typeof routes.createAddress> = async (c) => {
  const target = customerTarget(c.var.principal, c.req.valid('param').id, 'write');
  const address = await service.createAddress(c.var.db, target.id, c.req.valid('json'));
  return created(c, address, `/api/customers/${target.id}/addresses/${address.id}`, 'Address created');
};

export const updateAddress: AppRouteHandler<typeof routes.updateAddress> = async (c) => {
  const { id, addressId } = c.req.valid('param');
  const target = customerTarget(c.var.principal, id, 'write');
  return ok(c, await service.updateAddress(c.var.db, target.id, addressId, c.req.valid('json')), 'Address updated');
};

export const deleteAddress: AppRouteHandler<typeof routes.deleteAddress> = async (c) => {
  const { id, addressId } = c.req.valid('param');
  await service.deleteAddress(c.var.db, customerTarget(c.var.principal, id, 'write').id, addressId);
  return noContent(c);
};
