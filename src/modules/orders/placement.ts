import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { users } from '../../db/schema';
import { ApiError, type FieldProblem } from '../../lib/errors';
import { hasPermission, type Principal, vendorScope } from '../../lib/access';
import { CUSTOMER_ROLE } from '../customers';
import type { CreateOrderInput } from './orders.schemas';

/** Whom an order is for: a customer's account, or a guest's email alone. */
export interface Orderer {
  customerId: string | null;
  email: string;
}

export type Placement = { orderer: Orderer; errors: [] } | { orderer: null; errors: FieldProblem[] };

/**
 * Who an order placed through `POST /orders` is for (docs/api.md, Carts and orders). A signed-in customer orders
 * for itself, with its account email; naming anyone else is 422. Staff (`orders:write`) order for
 * an existing customer (`customerId`; the email defaults to the customer's) or a guest (`email`).
 * Vendor users and credentials without `orders:write` cannot place orders (403).
 * Field problems are returned rather than thrown, so the caller can report them with the lines'.
 */
export async function placementFor(db: Database, principal: Principal, body: CreateOrderInput): Promise<Placement> {
  if (vendorScope(principal)) throw ApiError.forbidden('Vendor users cannot place orders');
  if (hasPermission(principal, 'orders:write')) return staffPlacement(db, body);
  if (principal.kind === 'user' && principal.role === CUSTOMER_ROLE) return selfPlacement(db, principal, body);
  throw ApiError.forbidden("This credential lacks the 'orders:write' permission (customers order for themselves)");
}

async function staffPlacement(db: Database, body: CreateOrderInput): Promise<Placement> {
  if (body.customerId === undefined) {
    if (body.email !== undefined) return { orderer: { customerId: null, email: body.email }, errors: [] };
    const problem = 'give customerId (a customer) or email (a guest order)';
    return {
      orderer: null,
      errors: [
        { field: 'customerId', problem, code: 'required' },
        { field: 'email', problem, code: 'required' },
      ],
    };
  }
  const customer = await db.query.users.findFirst({ columns: { id: true, email: true }, where: and(eq(users.id, body.customerId), eq(users.roleId, CUSTOMER_ROLE)) });
  if (!customer) return { orderer: null, errors: [{ field: 'customerId', problem: `no customer '${body.customerId}'`, code: 'not_found' }] };
  return { orderer: { customerId: customer.id, email: body.email ?? customer.email }, errors: [] };
}

/** The account as its credential was checked (the check is part of the order's batch), or read now. */
async function ordererAccount(db: Database, principal: Extract<Principal, { kind: 'user' }>) {
  if (principal.email !== undefined) return { id: principal.id, email: principal.email };
  const account = await db.query.users.findFirst({ columns: { id: true, email: true }, where: eq(users.id, principal.id) });
  if (!account) throw ApiError.unauthenticated('This account no longer exists');
  return account;
}

async function selfPlacement(db: Database, principal: Extract<Principal, { kind: 'user' }>, body: CreateOrderInput): Promise<Placement> {
  const account = await ordererAccount(db, principal);
  const errors: FieldProblem[] = [];
  if (body.customerId !== undefined && body.customerId !== account.id)
    errors.push({ field: 'customerId', problem: 'a customer orders for itself: leave it out or give your own id' });
  if (body.email !== undefined && body.email !== account.email.toLowerCase()) errors.push({ field: 'email', problem: "a customer's orders use its account email: leave it out" });
  return errors.length ? { orderer: null, errors } : { orderer: { customerId: account.id, email: account.email }, errors: [] };
}
