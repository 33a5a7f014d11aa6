import { and, asc, count, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { bulkInserts } from '../../db/bound-parameters';
import type { Database } from '../../db/client';
import { type OrderRow, type OrderStatus, orderLines, orders, type ReturnStatus, returnLines, returns } from '../../db/schema';
import { type Principal, actorRef } from '../../lib/access';
import { withForeignKeyConflict } from '../../lib/db-errors';
import { withGuards } from '../../lib/db-guards';
import { ApiError, detailOf, type FieldProblem } from '../../lib/errors';
import { outboxEvent, outboxEventWhere } from '../../lib/events';
import { ID_PREFIX, newId, newIds } from '../../lib/ids';
import { insertWhere } from '../../lib/insert-where';
import { listPlan, type ParsedListQuery } from '../../lib/query';
import { movedTo, moveStatement, orderNumberOf, refuseReturnOfSpentCards } from '../ledger';
import { stockChangeStatements } from '../inventory';
import { ALL_ORDERS, type OrderReach, findOrder } from '../orders';
import { returnWindow } from './return-window';
import { returnCondition, returnLineCondition, returnWriter } from './returns.access';
import type { returnListQuery } from './returns.query';
import type { CreateReturnInput, Return, UpdateReturnInput } from './returns.schemas';

type ReturnRow = typeof returns.$inferSelect;
type ReturnLine = Return['lines'][number];

/** Orders whose lines may come back: paid (`processing`) or later, not cancelled or refunded in full. */
const RETURNABLE: readonly OrderStatus[] = ['processing', 'shipped', 'completed'];

/** The statuses each move starts from; a customer may only cancel its own, and only while `requested`. */
const MOVES_FROM: Record<UpdateReturnInput['status'], readonly ReturnStatus[]> = {
  approved: ['requested'],
  rejected: ['requested', 'approved'],
  received: ['approved'],
  refunded: ['received'],
  cancelled: ['requested', 'approved'],
};
const CUSTOMER_MOVES_FROM: Partial<typeof MOVES_FROM> = { cancelled: ['requested'] };

/** The lines of these returns that `reach` shows (a vendor: its own), by return. */
async function linesOf(db: Database, returnIds: string[], reach: OrderReach): Promise<Map<string, ReturnLine[]>> {
  const rows = returnIds.length
    ? await db
        .select()
        .from(returnLines)
        .where(and(inArray(returnLines.returnId, returnIds), returnLineCondition(reach)))
        .orderBy(asc(returnLines.id))
    : [];
  const byReturn = new Map<string, ReturnLine[]>();
  for (const { returnId, ...line } of rows) byReturn.set(returnId, [...(byReturn.get(returnId) ?? []), line]);
  return byReturn;
}

const toReturn = (row: ReturnRow, lines: ReturnLine[]): Return => ({ ...row, lines });

/** A page of the returns within `reach`, with the lines `reach` shows. */
export async function listReturns(db: Database, reach: OrderReach, query: ParsedListQuery<typeof returnListQuery.filters>, config: typeof returnListQuery) {
  const plan = listPlan(config, query, [returnCondition(reach)]);
  const [rows, totals] = await db.batch([
    db
      .select()
      .from(returns)
      .where(plan.where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ total: count() }).from(returns).where(plan.matching),
  ]);
  const lines = await linesOf(
    db,
    rows.map((r) => r.id),
    reach,
  );
  return { items: rows.map((r) => toReturn(r, lines.get(r.id) ?? [])), total: totals[0]!.total };
}

/** A return within `reach` with the lines it shows, or 404. */
export async function getReturn(db: Database, id: string, reach: OrderReach): Promise<Return> {
  const [row] = await db
    .select()
    .from(returns)
    .where(and(eq(returns.id, id), returnCondition(reach)));
  if (!row) throw ApiError.notFound('Return', id);
  return toReturn(row, (await linesOf(db, [id], reach)).get(id) ?? []);
}

/** The data of the `return.*` events (its module's `<name>.events.ts`). */
function returnEventData(row: Pick<ReturnRow, 'id' | 'orderId' | 'customerId'>, order: Pick<OrderRow, 'number'>, lines: ReturnLine[]) {
  return {
    returnId: row.id,
    orderId: row.orderId,
    orderNumber: orderNumberOf(order),
    customerId: row.customerId,
    lines: lines.map(({ orderLineId, quantity, reason, restockedQuantity }) => ({ orderLineId, quantity, reason, restockedQuantity })),
  };
}

/** 422 for lines not of the order (or named twice); 409 for more units than a line has left to return. */
function checkLines(order: OrderRow, requested: CreateReturnInput['lines'], lines: (typeof orderLines.$inferSelect)[]) {
  const byId = new Map(lines.map((l) => [l.id, l]));
  const errors: FieldProblem[] = [];
  const seen = new Set<string>();
  requested.forEach((line, i) => {
    if (!byId.has(line.orderLineId)) errors.push({ field: `lines.${i}.orderLineId`, problem: `is not a line of order '${order.id}'`, code: 'not_found' });
    else if (seen.has(line.orderLineId)) errors.push({ field: `lines.${i}.orderLineId`, problem: 'appears more than once', code: 'already_exists' });
    seen.add(line.orderLineId);
  });
  if (errors.length) throw ApiError.validation(errors);
  requested.forEach((line, i) => {
    const bought = byId.get(line.orderLineId)!;
    const left = bought.quantity - bought.quantityReturned;
    if (line.quantity > left) {
      throw new ApiError('CONFLICT', `Line '${line.orderLineId}' has ${left} unit(s) left to return, not ${line.quantity}`, {
        details: [detailOf({ field: `lines.${i}.quantity`, problem: `only ${left} left to return`, code: 'too_big' })],
      });
    }
  });
}

const overreturned = () => ApiError.conflict('More units would be returned than were bought; another return took these units first');

/**
 * Requests a return of some of an order's lines (docs/returns.md): its customer while the window is
 * open, staff (`returns:write`) any time. One batch writes the return (only while the order is still
 * returnable), its lines (whose trigger refuses returning more than was bought: 409) and `return.requested`.
 */
export async function createReturn(db: Database, orderRef: string, input: CreateReturnInput, principal: Principal, now = new Date()): Promise<Return> {
  const writer = returnWriter(principal);
  const order = await findOrder(db, orderRef, writer.kind === 'customer' ? eq(orders.customerId, writer.customerId) : undefined);
  if (!RETURNABLE.includes(order.status)) {
    throw ApiError.conflict(`Order '${order.id}' is ${order.status}: only processing, shipped or completed orders take returns`);
  }
  if (writer.kind === 'customer') {
    const window = await returnWindow(db, order);
    if (now.toISOString() > window.closesAt) {
      throw ApiError.conflict(
        `The return window of order '${order.id}' closed at ${window.closesAt} (${window.days} days after it was ${window.basis}); ask the store`,
        'orderId',
        { problem: `its return window closed at ${window.closesAt}` },
      );
    }
  }
  const lines = await db.select().from(orderLines).where(eq(orderLines.orderId, order.id));
  checkLines(order, input.lines, lines);
  // A gift card comes back as its value: one its holder spent cannot (the refund settling the return takes the value off).
  await refuseReturnOfSpentCards(db, order, input.lines);
  const ts = now.toISOString();
  const row: ReturnRow = {
    id: newId(ID_PREFIX.return, now.getTime()),
    orderId: order.id,
    customerId: order.customerId,
    status: 'requested',
    note: input.note ?? null,
    resolution: null,
    exchangeOrderId: null,
    requestedBy: actorRef(principal),
    approvedAt: null,
    receivedAt: null,
    refundedAt: null,
    closedAt: null,
    createdAt: ts,
    updatedAt: ts,
  };
  const ids = newIds(ID_PREFIX.returnLine, input.lines.length, now.getTime());
  const returned: ReturnLine[] = input.lines.map((l, i) => ({ id: ids[i]!, orderLineId: l.orderLineId, quantity: l.quantity, reason: l.reason, restockedQuantity: 0 }));
  const stillReturnable = sql`EXISTS (SELECT 1 FROM ${orders} WHERE ${orders.id} = ${order.id} AND ${orders.status} IN ('processing', 'shipped', 'completed'))`;
  const statements = [
    insertWhere(db, returns, row, stillReturnable),
    ...bulkInserts(
      db,
      returnLines,
      returned.map((l) => ({ ...l, returnId: row.id })),
    ),
    outboxEvent(db, 'return.requested', { ...returnEventData(row, order, returned), status: 'requested' as const, note: row.note }, now),
  ];
  // A return refused by the order's state leaves its lines without a parent: the foreign key aborts the batch.
  await withForeignKeyConflict(`Order '${order.id}' changed and can no longer take returns`, () => withGuards(() => db.batch(statements as never), { overreturned }));
  return toReturn(row, returned);
}

/** `restock` checked against the return's lines: each of them, once, at most its quantity (422). */
function checkRestock(current: Return, restock: NonNullable<UpdateReturnInput['restock']>) {
  const byId = new Map(current.lines.map((l) => [l.id, l]));
  const seen = new Set<string>();
  const errors: FieldProblem[] = [];
  restock.forEach((r, i) => {
    const line = byId.get(r.returnLineId);
    if (!line) errors.push({ field: `restock.${i}.returnLineId`, problem: `is not a line of return '${current.id}'`, code: 'not_found' });
    else if (seen.has(r.returnLineId)) errors.push({ field: `restock.${i}.returnLineId`, problem: 'appears more than once', code: 'already_exists' });
    else if (r.quantity > line.quantity) errors.push({ field: `restock.${i}.quantity`, problem: `must be at most the ${line.quantity} unit(s) returned`, code: 'too_big' });
    seen.add(r.returnLineId);
  });
  if (errors.length) throw ApiError.validation(errors);
}

/** Moves a return to its next status (docs/returns.md); `received` restocks the units staff name, in the same batch. */
export async function updateReturn(db: Database, returnId: string, input: UpdateReturnInput, principal: Principal, now = new Date()): Promise<Return> {
  const writer = returnWriter(principal);
  const current = await getReturn(db, returnId, writer.kind === 'customer' ? { kind: 'customer', customerId: writer.customerId } : ALL_ORDERS);
  const { status } = input;
  const from = writer.kind === 'staff' ? MOVES_FROM[status] : CUSTOMER_MOVES_FROM[status];
  if (!from) throw ApiError.forbidden(`Only staff (with 'returns:write') may move a return to '${status}'; a customer may cancel its own while requested`);
  if (!from.includes(current.status)) {
    throw new ApiError('CONFLICT', `A return cannot move from '${current.status}' to '${status}'`, {
      details: [detailOf({ field: 'status', problem: `cannot move from '${current.status}' to '${status}'`, code: 'conflict' })],
    });
  }
  if (input.restock && status !== 'received') throw ApiError.validation([{ field: 'restock', problem: "is only for moving to 'received'" }]);
  const restock = input.restock ?? [];
  checkRestock(current, restock);
  if (input.resolution !== undefined && writer.kind !== 'staff') throw ApiError.forbidden('Only staff write a resolution');

  const ts = now.toISOString();
  const set: Partial<ReturnRow> = { ...movedTo(status, ts), ...(input.resolution !== undefined ? { resolution: input.resolution } : {}) };
  const move = moveStatement(db, returnId, current.status, set);
  const restocked = new Map(restock.map((r) => [r.returnLineId, r.quantity]));
  const lines = current.lines.map((l) => ({ ...l, restockedQuantity: restocked.get(l.id) ?? l.restockedQuantity }));
  // A batch runs alone and in order, so what goes before the move, conditioned on the return still
  // being where the move starts, happens only in the request whose move wins: the loser restocks nothing.
  const statements: unknown[] = [];
  const still = sql`EXISTS (SELECT 1 FROM ${returns} WHERE ${returns.id} = ${returnId} AND ${returns.status} = ${current.status})`;
  if (status === 'received') statements.push(...(await restockStatements(db, current, restock, principal, now, still)));
  if (status === 'received' || status === 'approved' || status === 'rejected') {
    const data = returnEventData(current, await findOrder(db, current.orderId, undefined), lines);
    const resolution = ('resolution' in set ? set.resolution : current.resolution) ?? null;
    statements.push(
      status === 'received'
        ? outboxEventWhere(db, 'return.received', { ...data, status, receivedAt: ts }, still, now)
        : status === 'approved'
          ? outboxEventWhere(db, 'return.approved', { ...data, status, approvedAt: ts, resolution }, still, now)
          : outboxEventWhere(db, 'return.rejected', { ...data, status, closedAt: ts, resolution }, still, now),
    );
  }
  statements.push(move);
  const results = (await db.batch(statements as never)) as { meta: { changes: number } }[];
  if (results.at(-1)!.meta.changes === 0) throw ApiError.conflict(`Return '${returnId}' was changed by another request; read it again`);
  return { ...current, ...set, lines } as Return;
}

/** The restocked counts and the inventory adjustments (reason `return`, the note naming the return) of a receipt. */
async function restockStatements(db: Database, current: Return, restock: NonNullable<UpdateReturnInput['restock']>, principal: Principal, now: Date, still: SQL) {
  const chosen = restock.filter((r) => r.quantity > 0);
  if (!chosen.length) return [];
  const byId = new Map(current.lines.map((l) => [l.id, l]));
  const bought = await db
    .select({ id: orderLines.id, variantId: orderLines.variantId })
    .from(orderLines)
    .where(
      inArray(
        orderLines.id,
        chosen.map((r) => byId.get(r.returnLineId)!.orderLineId),
      ),
    );
  const variantOf = new Map(bought.map((l) => [l.id, l.variantId]));
  return chosen.flatMap((r) => [
    db
      .update(returnLines)
      .set({ restockedQuantity: r.quantity })
      .where(and(eq(returnLines.id, r.returnLineId), still)),
    ...stockChangeStatements(
      db,
      {
        variantId: variantOf.get(byId.get(r.returnLineId)!.orderLineId)!,
        delta: r.quantity,
        reason: 'return',
        orderId: current.orderId,
        note: `return ${current.id}`,
        actor: actorRef(principal),
      },
      now,
      still,
    ),
  ]);
}
