import { z } from '@hono/zod-openapi';
import { crudRoutes } from '../../lib/crud-routes';
import { fieldTreeFromSchema, readQuerySchema } from '../../lib/query';
import { AddressSchema, CreateAddressBody, UpdateAddressBody } from './addresses.schemas';
import { MAX_ADDRESSES_PER_CUSTOMER } from './addresses.service';
import { CustomerParams } from './customers.routes';

const AddressParams = z.object({
  addressId: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: 'addressId', in: 'path' }, example: 'addr_01JD0000000000000000000000' }),
});
const defaults = 'Setting `isDefaultShipping` or `isDefaultBilling` takes it away from the other addresses of the customer in the same write.';

/** A customer's addresses: at most MAX_ADDRESSES_PER_CUSTOMER, listed whole; the customer and staff reach them (customers.access.ts). */
export const addressRoutes = crudRoutes({
  path: '/customers/{id}/addresses',
  parent: { params: CustomerParams },
  itemParams: AddressParams,
  tag: 'Customers',
  sdk: { group: 'customers.addresses', singular: 'CustomerAddress', plural: 'CustomerAddresses' },
  noun: 'address',
  nouns: 'addresses',
  schema: AddressSchema,
  createBody: CreateAddressBody,
  updateBody: UpdateAddressBody,
  whole: { query: readQuerySchema(fieldTreeFromSchema(AddressSchema)) },
  resource: 'customers',
  reach: "the customer itself (or `me`) and staff with `customers:read` / `customers:write`; another customer's address is 404.",
  conflicts: ['create'],
  slug: null,
  summaries: {
    list: "List a customer's addresses",
    create: 'Add an address',
    get: 'Get an address',
    update: 'Update an address',
    delete: 'Delete an address',
  },
  notes: {
    list: `Every address (at most ${MAX_ADDRESSES_PER_CUSTOMER}) in one page, oldest first.`,
    create: `${defaults} A customer has at most ${MAX_ADDRESSES_PER_CUSTOMER} addresses (409 beyond).`,
    update: defaults,
  },
});
