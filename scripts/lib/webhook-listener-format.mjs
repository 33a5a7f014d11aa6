// What `npm run webhooks:listen` prints: colours (only on a terminal), and a one-line summary of an
// event's data for each kind of event (docs/webhooks.md: what each kind carries).

/** Colours only on a terminal, and never with NO_COLOR set; FORCE_COLOR turns them on anyway. */
export function makePaint(stream = process.stdout, env = process.env) {
  const enabled = ('FORCE_COLOR' in env && env.FORCE_COLOR !== '0') || (Boolean(stream.isTTY) && !('NO_COLOR' in env));
  const paint = (code) => (text) => (enabled ? `\u001b[${code}m${text}\u001b[0m` : String(text));
  return { bold: paint('1'), dim: paint('2'), red: paint('31'), green: paint('32'), yellow: paint('33'), cyan: paint('36') };
}

/** `HH:MM:SS` in local time. */
export function clock(date = new Date()) {
  return date.toTimeString().slice(0, 8);
}

/** "4s", "3m 5s", "2h 4m", "3d 2h". */
export function duration(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h ${m % 60}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

const isScalar = (v) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
const money = (amount, currency) => (typeof amount === 'number' ? `${amount}${currency ? ` ${currency}` : ''}` : undefined);
const quoted = (s) => (typeof s === 'string' ? JSON.stringify(s) : undefined);

/** `key=value` for the scalar fields of `data`, in order, up to `max` characters. */
function genericSummary(data, max = 120) {
  if (!data || typeof data !== 'object') return data === undefined ? '' : JSON.stringify(data);
  const parts = Object.entries(data)
    .filter(([, v]) => isScalar(v))
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  const text = parts.join(' ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** One compact line describing an event's data, e.g. `ord_123  42.5 EUR  pending`. */
export function summarize(event, data) {
  const d = data && typeof data === 'object' ? data : {};
  const join = (...parts) => parts.filter((p) => p !== undefined && p !== null && p !== '').join('  ');
  if (typeof event !== 'string') return genericSummary(data);
  if (event === 'ping') return join('ping', genericSummary(data));
  if (event.startsWith('order.')) {
    return join(d.orderId, money(d.total, d.currency), d.status, d.customerId ? `customer ${d.customerId}` : undefined) || genericSummary(data);
  }
  if (event.startsWith('product.')) {
    const p = d.product && typeof d.product === 'object' ? d.product : d;
    return join(d.productId ?? p.id, quoted(p.name), money(p.price), p.status) || genericSummary(data);
  }
  if (event === 'customer.registered') return join(d.customerId, d.email, quoted(d.name)) || genericSummary(data);
  if (event === 'payment.completed') return join(d.paymentId, d.orderId ? `order ${d.orderId}` : undefined, money(d.amount, d.currency)) || genericSummary(data);
  if (event === 'inventory.low') {
    const stock = typeof d.quantity === 'number' ? `${d.quantity} left${typeof d.threshold === 'number' ? ` (threshold ${d.threshold})` : ''}` : undefined;
    return join(d.sku ? `sku ${d.sku}` : undefined, stock, d.variantId, d.productId) || genericSummary(data);
  }
  return genericSummary(data);
}
