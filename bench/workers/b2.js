// B2: the floor for an order. Every request writes, in ONE D1 batch, the rows a guest order of one
// line writes (src/modules/orders/place-order.ts): the order (numbered by its INSERT as the real
// one is), its line, the stock change (an inventory_adjustments row whose trigger takes the stock
// down, refused below zero by product_variants_stock_guard, which aborts the batch), the first
// status history row and the order.placed event. No validation, no pricing, no Drizzle, no
// middleware; the database's triggers fire as they do for a real order.
//
// The body names the line: { variantId, productId, email }. It reports the statements it ran and the
// rows they wrote.
//
// The event is written already published (the real one is marked published by the queue consumer
// afterwards): unpublished, the consumer's sweep of leftovers would deliver it to the bench's
// webhook receiver. Its id starts with env.EVENT_ID_PREFIX (set by bench/run.mjs), so the bench can
// tell its events apart.
//
// With EVENTS_QUEUE bound (B2 with its aftermath), the event is written unpublished and sent to the
// store's events queue after the batch, as the store sends its own: the store's consumers then do
// for it what they do for an order's event (mark it published, plan and send the confirmation email).
const ORDER_NUMBER_START = 1001;
const UNIT_PRICE = 1000;

const SQL = {
  order:
    'INSERT INTO orders (id, number, email, status, currency, minor_units, subtotal, total, created_at, updated_at) ' +
    "VALUES (?1, (SELECT max(coalesce(max(number) + 1, ?2), ?2) FROM orders), ?3, 'pending', 'USD', 2, ?4, ?4, ?5, ?5)",
  line: 'INSERT INTO order_lines (id, order_id, product_id, variant_id, name, quantity, unit_price, subtotal, total) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?)',
  stock:
    'INSERT INTO inventory_adjustments (id, variant_id, product_id, delta, reason, note, order_id, actor, created_at) ' +
    "SELECT ?1, id, product_id, -1, 'order', NULL, ?2, ?3, ?4 FROM product_variants WHERE id = ?5",
  history: "INSERT INTO order_status_history (id, order_id, from_status, to_status, actor, note, created_at) VALUES (?, ?, NULL, 'pending', ?, NULL, ?)",
  event:
    'INSERT INTO events (id, type, data, created_at, published_at) ' +
    "VALUES (?1, 'order.placed', json_set(?2, '$.orderNumber', (SELECT number FROM orders WHERE id = ?3)), ?4, ?5)",
};

export default {
  async fetch(request, env) {
    const { variantId, productId, email } = await request.json();
    const ts = new Date().toISOString();
    const orderId = `ord_${crypto.randomUUID()}`;
    const actor = 'bench:b2';
    const eventId = `${env.EVENT_ID_PREFIX}${crypto.randomUUID()}`;
    const data = JSON.stringify({ orderId, customerId: null, email, total: UNIT_PRICE / 100, currency: 'USD', status: 'pending' });
    const results = await env.DB.batch([
      env.DB.prepare(SQL.order).bind(orderId, ORDER_NUMBER_START, email, UNIT_PRICE, ts),
      env.DB.prepare(SQL.line).bind(`oline_${crypto.randomUUID()}`, orderId, productId, variantId, 'B2 line', UNIT_PRICE, UNIT_PRICE, UNIT_PRICE),
      env.DB.prepare(SQL.stock).bind(`adj_${crypto.randomUUID()}`, orderId, actor, ts, variantId),
      env.DB.prepare(SQL.history).bind(`ohist_${crypto.randomUUID()}`, orderId, actor, ts),
      env.DB.prepare(SQL.event).bind(eventId, data, orderId, ts, env.EVENTS_QUEUE ? null : ts),
    ]);
    if (env.EVENTS_QUEUE) await env.EVENTS_QUEUE.send({ eventId });
    const rowsWritten = results.reduce((sum, r) => sum + (r.meta?.rows_written ?? 0), 0);
    return new Response(JSON.stringify({ success: true, data: { id: orderId } }), {
      status: 201,
      headers: { 'Content-Type': 'application/json', 'X-Bench-D1-Rows-Written': String(rowsWritten), 'X-Bench-D1-Statements': String(results.length) },
    });
  },
};
