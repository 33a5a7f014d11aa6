import type { Database } from '../../db/client';
import { hasPermission, type Principal, vendorScope } from '../../lib/access';
import { crudHandlers } from '../../lib/crud-handlers';
import { ApiError } from '../../lib/errors';
import type { ParsedListQuery } from '../../lib/query';
import type { vendorListQuery } from './vendors.query';
import * as service from './vendors.service';

function listVendors(db: Database, query: ParsedListQuery<typeof vendorListQuery.filters>, principal: Principal) {
  if (vendorScope(principal) !== null) throw ApiError.forbidden('A vendor user reads only its own vendor, at /api/vendors/{id}');
  return service.listVendors(db, query);
}

/** Staff read any vendor; a vendor user reads its own, and any other is 404 so ids cannot be probed. */
async function getVendor(db: Database, id: string, principal: Principal) {
  const scope = vendorScope(principal);
  if (scope === null && !hasPermission(principal, 'vendors:read')) throw ApiError.forbidden("This credential lacks the 'vendors:read' permission");
  const vendor = await service.getVendor(db, id);
  if (scope !== null && vendor.id !== scope) throw ApiError.notFound('Vendor', id);
  return vendor;
}

export const vendorHandlers = crudHandlers(
  { list: listVendors, get: getVendor, create: service.createVendor, update: service.updateVendor, remove: service.deleteVendor },
  { path: '/vendors', noun: 'vendor' },
);
