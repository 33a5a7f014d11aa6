import { and, asc, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { bulkInserts } from '../../db/bound-parameters';
import type { Database } from '../../db/client';
import { type OrderLineRow, type OrderRow, type OrderStatus, orderLines, orders, type ShipmentRow, shipmentLines, shipments, shippingMethods } from '../../db/schema';
import { withForeignKeyConflict } from '../../lib/db-errors';
import { withGuards } from '../../lib/db-guards';
import { ApiError, type FieldProblem, detailOf } from '../../lib/errors';
import { outboxEvent, outboxEventWhere } from '../../lib/events';
import { ID_PREFIX, newId } from '../../lib/ids';
import { insertWhere } from '../../lib/insert-where';
import { type AnyFilters, type ListQueryConfig, listPlan, type ParsedListQuery } from '../../lib/query';
import { followUpOrderStatus, orderNumberOf, statusChangeStatements } from '../ledger';
import type { CreateShipmentInput, Shipment, UpdateShipmentInput } from './shipments.schemas';
import { findOrder, ALL_ORDERS, type OrderReach } from '../orders';
import { shipmentCondition, shipmentLineCondition } from './shipments.access';

/** The order a path names (id or number), within the caller's reach. */
export { findOrder };

type Line = { orderLineId: string; quantity: number };
const toShipment = (row: ShipmentRow, lines: Line[]): Shipment => ({ ...row, lines });

/** Orders ship while `processing`, and again while `shipped` for a later partial shipment. */
const SHIPPABLE: readonly OrderStatus[] = ['processing', 'shipped'];
const allShipped = (lines: OrderLineRow[]) => lines.every((l) => l.quantityShipped >= l.quantity);
const allDelivered = (lines: OrderLineRow[]) => lines.every((l) => l.quantityDelivered >= l.quantity);

/** The lines of these shipments that `reach` shows (a vendor: its own), by shipment. */
async function linesOf(db: Database, shipmentIds: string[], reach: OrderReach): Promise<Map<string, Line[]>> {
  const rows = shipmentIds.length
    ? await db
        .select()
        .from(shipmentLines)
        .where(and(inArray(shipmentLines.shipmentId, shipmentIds), shipmentLineCondition(reach)))
        .orderBy(asc(shipmentLines.orderLineId))
    : [];
  const byShipment = new Map<string, Line[]>();
  for (const r of rows) byShipment.set(r.shipmentId, [...(byShipment.get(r.shipmentId) ?? []), { orderLineId: r.orderLineId, quantity: r.quantity }]);
  return byShipment;
}

/** A page of the shipments within `reach` matching `conditions` (an order's, or none), with the lines `reach` shows. */
export async function listShipments<F extends AnyFilters>(db: Database, reach: OrderReach, conditions: (SQL | undefined)[], query: ParsedListQuery<F>, config: ListQueryConfig<F>) {
  const plan = listPlan(config, query, [...conditions, shipmentCondition(reach)]);
  const [rows, totals] = await db.batch([
    db
      .select()
      .from(shipments)
      .where(plan.where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ total: count() }).from(shipments).where(plan.matching),
  ]);
  const lines = await linesOf(
    db,
    rows.map((r) => r.id),
    reach,
  );
  return { items: rows.map((r) => toShipment(r, lines.get(r.id) ?? [])), total: totals[0]!.total };
}

/** A shipment within `reach` with the lines it shows, or 404. */
export async function getShipment(db: Database, id: string, reach: OrderReach): Promise<Shipment> {
  const [row] = await db
    .select()
    .from(shipments)
    .where(and(eq(shipments.id, id), shipmentCondition(reach)));
  if (!row) throw ApiError.notFound('Shipment', id);
  return toShipment(row, (await linesOf(db, [id], reach)).get(id) ?? []);
}

/** What each line of the order still has outside any shipment (pending ones included). */
async function unallocated(db: Database, orderId: string) {
  const [lines, allocated] = await db.batch([
    db.select().from(orderLines).where(eq(orderLines.orderId, orderId)).orderBy(asc(orderLines.id)),
    db
      .select({ orderLineId: shipmentLines.orderLineId, quantity: sql<number>`sum(${shipmentLines.quantity})` })
      .from(shipmentLines)
      .innerJoin(shipments, eq(shipments.id, shipmentLines.shipmentId))
      .where(eq(shipments.orderId, orderId))
      .groupBy(shipmentLines.orderLineId),
  ]);
  const taken = new Map(allocated.map((a) => [a.orderLineId, a.quantity]));
  return { lines, left: new Map(lines.map((l) => [l.id, l.quantity - (taken.get(l.id) ?? 0)])) };
}

function chooseLines(order: OrderRow, requested: Line[] | undefined, lines: OrderLineRow[], left: Map<string, number>): Line[] {
  if (!requested) {
    const rest = lines.filter((l) => left.get(l.id)! > 0).map((l) => ({ orderLineId: l.id, quantity: left.get(l.id)! }));
    if (!rest.length) throw ApiError.conflict(`Every unit of order '${order.id}' is already in a shipment`);
    return rest;
  }
  const errors: FieldProblem[] = [];
  const seen = new Set<string>();
  requested.forEach((line, i) => {
    if (!left.has(line.orderLineId)) errors.push({ field: `lines.${i}.orderLineId`, problem: `is not a line of order '${order.id}'`, code: 'not_found' });
    else if (seen.has(line.orderLineId)) errors.push({ field: `lines.${i}.orderLineId`, problem: 'appears more than once', code: 'already_exists' });
    seen.add(line.orderLineId);
  });
  if (errors.length) throw ApiError.validation(errors);
  requested.forEach((line, i) => {
    const rest = left.get(line.orderLineId)!;
    if (line.quantity > rest) {
      throw new ApiError('CONFLICT', `Line '${line.orderLineId}' has ${rest} unit(s) left to ship, not ${line.quantity}`, {
        details: [detailOf({ field: `lines.${i}.quantity`, problem: `only ${rest} left to ship`, code: 'too_big' })],
      });
    }
  });
  return requested;
}

type Step = 'shipped' | 'delivered';
const STEP = {
  shipped: { from: 'pending', column: orderLines.quantityShipped, field: 'quantityShipped', stamp: 'shippedAt', orderFrom: 'processing', orderTo: 'shipped', done: allShipped },
  delivered: {
    from: 'shipped',
    column: orderLines.quantityDelivered,
    field: 'quantityDelivered',
    stamp: 'deliveredAt',
    orderFrom: 'shipped',
    orderTo: 'completed',
    done: allDelivered,
  },
} as const;

/**
 * The statements that move a shipment's units on (shipped or delivered): its lines' counters rise
 * only while the shipment is still in the step before (checked in the statement, so a concurrent
 * PATCH of the same shipment counts once), and the order moves on when this completes it.
 */
function stepStatements(db: Database, shipmentId: string, step: Step, order: OrderRow, lines: OrderLineRow[], moved: Line[], actor: string, now: Date) {
  const s = STEP[step];
  const quantityOf = sql`(SELECT ${shipmentLines.quantity} FROM ${shipmentLines} WHERE ${shipmentLines.shipmentId} = ${shipmentId} AND ${shipmentLines.orderLineId} = ${orderLines.id})`;
  const raise = db
    .update(orderLines)
    .set({ [s.field]: sql`${s.column} + ${quantityOf}` })
    .where(
      and(
        sql`${orderLines.id} IN (SELECT ${shipmentLines.orderLineId} FROM ${shipmentLines} WHERE ${shipmentLines.shipmentId} = ${shipmentId})`,
        sql`(SELECT ${shipments.status} FROM ${shipments} WHERE ${shipments.id} = ${shipmentId}) = ${s.from}`,
      ),
    );
  const after = lines.map((l) => {
    const q = moved.find((m) => m.orderLineId === l.id)?.quantity ?? 0;
    return { ...l, [s.field]: l[s.field] + q };
  });
  const completes = order.status === s.orderFrom && s.done(after);
  const note = `shipment ${shipmentId} ${step}`;
  return { raise, completes, orderStatements: completes ? statusChangeStatements(db, order, s.orderTo, { actor, note, now }) : [] };
}

async function followUp(db: Database, orderId: string, step: Step, actor: string, shipmentId: string) {
  const s = STEP[step];
  await followUpOrderStatus(db, orderId, [s.orderFrom], s.orderTo, async (o) => s.done(await db.select().from(orderLines).where(eq(orderLines.orderId, o.id))), {
    actor,
    note: `shipment ${shipmentId} ${step}`,
  });
}

/** `shipment.shipped`: the shipment with its tracking and lines, for subscribers and the shipping notifications. */
function shippedEventData(shipment: Pick<ShipmentRow, 'id' | 'orderId' | 'carrier' | 'trackingNumber' | 'trackingUrl'>, order: OrderRow, lines: Line[], ts: string) {
  return {
    shipmentId: shipment.id,
    orderId: shipment.orderId,
    orderNumber: orderNumberOf(order),
    customerId: order.customerId,
    carrier: shipment.carrier,
    trackingNumber: shipment.trackingNumber,
    trackingUrl: shipment.trackingUrl,
    status: 'shipped' as const,
    shippedAt: ts,
    lines,
  };
}

const overshipped = () => ApiError.conflict('More would be shipped (or delivered) than was ordered; another shipment took these units first');

/** The method a new shipment names: the order's unless another existing one is given. */
async function shipmentMethod(db: Database, order: OrderRow, given: string | undefined): Promise<string | null> {
  if (given === undefined || given === order.shippingMethodId) return order.shippingMethodId;
  const [found] = await db.select({ id: shippingMethods.id }).from(shippingMethods).where(eq(shippingMethods.id, given));
  if (!found) throw ApiError.validation([{ field: 'shippingMethodId', problem: `no shipping method '${given}'`, code: 'not_found' }]);
  return found.id;
}

/**
 * Creates a shipment in one batch: the shipment (inserted only while the order is still shippable),
 * its lines, and, for one created `shipped`, the lines' shipped counts and the order's move to
 * `shipped` once every unit has shipped. The fulfilment trigger refuses shipping more than ordered.
 */
export async function createShipment(db: Database, order: OrderRow, input: CreateShipmentInput, actor: string, now = new Date()): Promise<Shipment> {
  if (!SHIPPABLE.includes(order.status)) {
    throw ApiError.conflict(`Order '${order.id}' is ${order.status}: only processing (or shipped, for a later partial shipment) orders ship`);
  }
  const { lines, left } = await unallocated(db, order.id);
  const chosen = chooseLines(order, input.lines, lines, left);
  const ts = now.toISOString();
  const status = input.status ?? 'pending';
  const row: ShipmentRow = {
    id: newId(ID_PREFIX.shipment, now.getTime()),
    orderId: order.id,
    carrier: input.carrier ?? null,
    shippingMethodId: await shipmentMethod(db, order, input.shippingMethodId),
    trackingNumber: input.trackingNumber ?? null,
    trackingUrl: input.trackingUrl ?? null,
    // Inserted pending and moved by the step statements, so creation and PATCH share one path.
    status: 'pending',
    shippedAt: null,
    deliveredAt: null,
    createdAt: ts,
    updatedAt: ts,
  };
  const stillShippable = sql`EXISTS (SELECT 1 FROM ${orders} WHERE ${orders.id} = ${order.id} AND ${orders.status} IN ('processing', 'shipped'))`;
  const step = status === 'shipped' ? stepStatements(db, row.id, 'shipped', order, lines, chosen, actor, now) : undefined;
  const statements = [
    insertWhere(db, shipments, row, stillShippable),
    ...bulkInserts(
      db,
      shipmentLines,
      chosen.map((l) => ({ shipmentId: row.id, ...l })),
    ),
    ...(step
      ? [
          step.raise,
          db.update(shipments).set({ status: 'shipped', shippedAt: ts }).where(eq(shipments.id, row.id)),
          ...step.orderStatements,
          outboxEvent(db, 'shipment.shipped', shippedEventData(row, order, chosen, ts), now),
        ]
      : []),
  ];
  // A shipment refused by the order's state leaves its lines without a parent: the foreign key aborts the batch.
  await withForeignKeyConflict(`Order '${order.id}' changed and can no longer ship`, () => withGuards(() => db.batch(statements as never), { overshipped }));
  if (step && !step.completes) await followUp(db, order.id, 'shipped', actor, row.id);
  return toShipment(status === 'shipped' ? { ...row, status, shippedAt: ts } : row, chosen);
}

const NEXT: Record<ShipmentRow['status'], Step | null> = { pending: 'shipped', shipped: 'delivered', delivered: null };

/** Tracking changes, and the next status; a status out of order (or the same one again) is 409. */
export async function updateShipment(db: Database, shipmentId: string, patch: UpdateShipmentInput, actor: string, now = new Date()): Promise<Shipment> {
  const current = await getShipment(db, shipmentId, ALL_ORDERS);
  const ts = now.toISOString();
  const { status, ...tracking } = patch;
  const set: Partial<ShipmentRow> = { ...tracking, updatedAt: ts };
  if (status === undefined) {
    if (Object.keys(tracking).length === 0) return current;
    await db.update(shipments).set(set).where(eq(shipments.id, shipmentId));
    return { ...current, ...set };
  }
  const step = NEXT[current.status];
  if (status !== step) {
    const allowed = step ? `it can move to '${step}'` : `'${current.status}' is final`;
    throw new ApiError('CONFLICT', `A shipment cannot move from '${current.status}' to '${status}': ${allowed}`, {
      details: [detailOf({ field: 'status', problem: `cannot move from '${current.status}' to '${status}'`, code: 'conflict' })],
    });
  }
  const order = await findOrder(db, current.orderId, undefined);
  if (step === 'shipped' && !SHIPPABLE.includes(order.status)) throw ApiError.conflict(`Order '${order.id}' is ${order.status}: its shipments cannot ship`);
  const lines = await db.select().from(orderLines).where(eq(orderLines.orderId, order.id));
  const moves = stepStatements(db, shipmentId, step, order, lines, current.lines, actor, now);
  const stamp = { ...set, status: step, [STEP[step].stamp]: ts };
  const results = await withGuards(
    () =>
      db.batch([
        moves.raise,
        db
          .update(shipments)
          .set(stamp)
          .where(and(eq(shipments.id, shipmentId), eq(shipments.status, STEP[step].from))),
        ...moves.orderStatements,
        // Only when this request's update above moved it (a concurrent PATCH that lost emits nothing).
        ...(step === 'shipped'
          ? [
              outboxEventWhere(
                db,
                'shipment.shipped',
                shippedEventData({ ...current, ...tracking }, order, current.lines, ts),
                sql`EXISTS (SELECT 1 FROM ${shipments} WHERE ${shipments.id} = ${shipmentId} AND ${shipments.status} = 'shipped' AND ${shipments.shippedAt} = ${ts})`,
                now,
              ),
            ]
          : []),
      ] as never),
    { overshipped },
  );
  if ((results as { meta: { changes: number } }[])[1]!.meta.changes === 0) throw ApiError.conflict(`Shipment '${shipmentId}' was changed by another request; read it again`);
  if (!moves.completes) await followUp(db, order.id, step, actor, shipmentId);
  return { ...current, ...stamp } as Shipment;
}
