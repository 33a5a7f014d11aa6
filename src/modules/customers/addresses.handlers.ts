import { nestedCrudHandlers } from '../../lib/crud-handlers';
import * as service from './addresses.service';
import { customerTarget } from './customers.access';

export const addressHandlers = nestedCrudHandlers(
  {
    list: service.listAddresses,
    get: service.getAddress,
    create: service.createAddress,
    update: service.updateAddress,
    remove: service.deleteAddress,
  },
  {
    path: '/customers/{id}/addresses',
    noun: 'address',
    param: 'addressId',
    // `me` is the signed-in customer; another customer's id is 404 to a customer, 403 to staff without the permission.
    parent: { param: 'id', resolve: (c, id, action) => customerTarget(c.var.principal, id, action).id },
    whole: { max: service.MAX_ADDRESSES_PER_CUSTOMER },
  },
);
