import { isStaff, type Principal, vendorScope } from '../../lib/access';
import type { Visibility } from './products.read';

/** What a caller sees of the catalogue: staff every status, a vendor user only its vendor's products, the public active ones. */
export const productVisibility = (principal: Principal): Visibility => ({ staff: isStaff(principal, 'products'), vendorId: vendorScope(principal) });

/** Whose products a caller may write: a vendor user its own vendor's only (null: any). */
export const productWriter = (principal: Principal) => vendorScope(principal);
