import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { giftCardCode, giftCardSecret } from '../../src/modules/ledger/gift-card-code';
import type { OrderLineRow, OrderRow, PaymentRow } from '../../src/db/schema';
import { api, type ApiResponse } from '../helpers';
import { payByStripe } from '../payments/stripe-fake';
import { conservationProblems, type Expected } from './money-invariants';
import { dueOn, type Ledger, leftOn, linesOf, moneyView, readLedger, refundable } from './money-ledger';
import { readBackProblems } from './money-readback';
import { ADDRESSES, CURRENCIES, type Currency, openShop, type Shop, type ShopSpec } from './money-shop';
import type { Step } from './money-steps';
import { call, cartOf } from './shopper-cart';

/**
 * One run of the money conservation property: a shop of its own (money-shop.ts), the steps
 * fast-check chose, each done through the API as a shopper or staff would, and after each the
 * invariants (money-invariants.ts) on the ledger read back (money-ledger.ts, money-readback.ts).
 * A request the store may refuse (409, 422) must then have changed nothing of money or stock.
 * `log` says what each request answered, for the report of a failing run.
 */

const major = (minor: number) => minor / 100;
const minor = (amount: number) => Math.round(amount * 100);

/** An answer outside `allowed` (or any 5xx) fails the run, saying what it was. */
function expectStatus(what: string, res: ApiResponse, allowed: number[]): void {
  if (!allowed.includes(res.status)) throw new Error(`${what} answered ${res.status}, expected ${allowed.join(' or ')}: ${JSON.stringify(res.body)}`);
}

export class MoneyRun {
  readonly log: string[] = [];
  private readonly orders: { id: string; guest: boolean; currency: Currency }[] = [];
  /** Codes of the cards staff issued; a bought card's code is derived from its id, as its email's is. */
  private readonly codes = new Map<string, string>();
  private readonly expected: Expected;
  private readonly touched = new Set<string>();
  private ledger!: Ledger;

  private constructor(private readonly shop: Shop) {
    this.expected = {
      customerId: shop.customer.id,
      giftCardProducts: new Set(shop.products.filter((p) => p.giftCard).map((p) => p.productId)),
      stockAtStart: shop.stockAtStart,
      stock: new Map(shop.products.map((p) => [p.variantId, { sold: 0, restocked: 0 }])),
      adjustments: new Map(),
    };
  }

  static async open(key: string, spec: ShopSpec): Promise<MoneyRun> {
    const run = new MoneyRun(await openShop(key, spec));
    run.ledger = await run.read();
    for (const card of spec.giftCards) await run.issueGiftCard({ kind: 'issueGiftCard', ...card });
    for (const currency of CURRENCIES) if (spec.credit[currency]) await run.addCredit({ kind: 'addCredit', currency, amount: spec.credit[currency] });
    run.ledger = await run.read();
    return run;
  }

  private get key() {
    return this.shop.key;
  }

  private read(): Promise<Ledger> {
    return readLedger({
      orderIds: this.orders.map((o) => o.id),
      cardIds: [...this.codes.keys()],
      customerId: this.shop.customer.id,
      variantIds: this.shop.products.map((p) => p.variantId),
    });
  }

  /** Does the step, then checks every invariant and the API's view of what it touched. */
  async step(step: Step): Promise<void> {
    this.touched.clear();
    this.log.push(`${step.kind}:`);
    await this.perform(step);
    const after = await this.read();
    const problems = [
      ...conservationProblems(after, this.expected),
      ...(await readBackProblems(this.ledger, after, { orderIds: this.touched, key: this.key, customerId: this.shop.customer.id })),
    ];
    this.ledger = after;
    if (problems.length) throw new Error(`after ${JSON.stringify(step)}:\n  ${problems.join('\n  ')}`);
  }

  private perform(step: Step): Promise<void> {
    switch (step.kind) {
      case 'place':
        return this.place(step);
      case 'pay':
        return this.payStep(step);
      case 'issueGiftCard':
        return this.issueGiftCard(step);
      case 'addCredit':
        return this.addCredit(step);
      case 'refundLines':
        return this.refundLines(step);
      case 'refundAmount':
        return this.refundAmount(step);
      case 'ship':
        return this.ship(step);
      case 'return':
        return this.returnStep(step);
      case 'cancel':
        return this.cancel(step);
    }
  }

  private note(what: string, res: ApiResponse) {
    const why = res.status >= 400 ? ` ${res.body?.error?.code}: ${res.body?.error?.message}` : '';
    this.log.push(`  ${what} -> ${res.status}${why}`);
  }

  /** A request that must answer one of `allowed`; when it refuses (4xx), money and stock are as they were. */
  private async request(what: string, send: () => Promise<ApiResponse>, allowed: number[]): Promise<ApiResponse> {
    const refusable = allowed.some((s) => s >= 400);
    const before = refusable ? moneyView(await this.read()) : null;
    const res = await send();
    this.note(what, res);
    expectStatus(what, res, allowed);
    if (before && res.status >= 400) expect(moneyView(await this.read()), `${what} answered ${res.status}, yet changed money or stock`).toEqual(before);
    return res;
  }

  private post(path: string, json: unknown, key = this.key) {
    return () => api(path, { method: 'POST', key, json });
  }

  /**
   * The run's orders (as the ledger has them) that `fits` (those of them that are `preferred`, if
   * any are), the `index`th of them (wrapping), or null when none fits.
   */
  private pickOrder(index: number, fits: (o: OrderRow) => boolean, preferred: (o: OrderRow) => boolean = () => true): OrderRow | null {
    const fitting = this.orders.map((o) => this.ledger.orders.find((r) => r.id === o.id)!).filter(fits);
    const rows = fitting.some(preferred) ? fitting.filter(preferred) : fitting;
    const row = rows.length ? rows[index % rows.length]! : null;
    if (!row) this.log.push('  (no order to act on)');
    else this.touched.add(row.id);
    return row;
  }

  private modelOf(orderId: string) {
    return this.orders.find((o) => o.id === orderId)!;
  }

  /**
   * The order's payments that can give money back, the one with the most left first. Not a guest's
   * exchange payment: the store refunds those only to store credit, which a guest has not (422).
   */
  private refundablePayments(orderId: string): PaymentRow[] {
    const guest = this.modelOf(orderId).guest;
    return this.ledger.payments
      .filter((p) => p.orderId === orderId && refundable(p) && leftOn(this.ledger, p) > 0 && !(guest && p.provider === 'exchange'))
      .sort((a, b) => leftOn(this.ledger, b) - leftOn(this.ledger, a) || a.id.localeCompare(b.id));
  }

  /** Cards of the run that can pay in `currency` now, bought ones first, with their codes, from the `from`th (wrapping). */
  private async spendableCards(currency: Currency, from: number) {
    const usable = this.ledger.cards
      .filter((c) => c.currency === currency && c.status === 'active' && c.balance > 0 && !c.expiresAt)
      .sort((a, b) => Number(!a.orderLineId) - Number(!b.orderLineId) || a.id.localeCompare(b.id));
    const start = usable.length ? from % usable.length : 0;
    const cards = [...usable.slice(start), ...usable.slice(0, start)];
    return Promise.all(cards.map(async (c) => ({ id: c.id, balance: c.balance, code: this.codes.get(c.id) ?? (await giftCardCode(giftCardSecret(env), c.id)) })));
  }

  private sold(variantId: string, quantity: number) {
    const counts = this.expected.stock.get(variantId);
    if (counts) counts.sold += quantity;
  }

  private restocked(variantId: string, quantity: number) {
    const counts = this.expected.stock.get(variantId);
    if (counts) counts.restocked += quantity;
  }

  /** Records an order the store placed (checkout or exchange): its stock is taken. */
  private placed(order: { id: string; lines: { variantId: string; quantity: number }[] }, guest: boolean, currency: Currency) {
    this.orders.push({ id: order.id, guest, currency });
    this.touched.add(order.id);
    for (const line of order.lines) this.sold(line.variantId, line.quantity);
  }

  private creditIn(currency: string) {
    return this.ledger.creditBalances.get(currency) ?? 0;
  }

  /** Pays `amount` (minor units; what is owed without it) of an order by `provider`; the store must take it. */
  private async pay(orderId: string, provider: 'manual' | 'stripe' | 'store_credit', amount?: number) {
    const json = { provider, ...(amount === undefined ? {} : { amount: major(amount) }) };
    const what = `pay ${orderId} by ${provider}${amount === undefined ? '' : ` ${major(amount)}`}`;
    if (provider === 'stripe') return this.request(what, () => payByStripe(orderId, this.key, json.amount), [200]);
    return this.request(what, this.post(`/api/orders/${orderId}/payments`, json, provider === 'store_credit' ? this.shop.customer.token : this.key), [201]);
  }

  private async place(step: Extract<Step, { kind: 'place' }>) {
    const as = step.guest ? undefined : this.shop.customer.token;
    const lines = step.lines.map((l): [string, number] => [this.shop.products[l.product]!.variantId, l.quantity]);
    const cart = await cartOf(lines, ADDRESSES[step.currency], as, { currency: step.currency });
    if (step.code && this.shop.code) await this.request(`code ${this.shop.code}`, () => call(cart, '/coupon', 'POST', { code: this.shop.code }, as), [200, 409]);
    for (const card of (await this.spendableCards(step.currency, step.cardsFrom)).slice(0, step.giftCards)) {
      await this.request(`apply gift card ${card.id} (${major(card.balance)})`, () => call(cart, '/gift-cards', 'POST', { code: card.code }, as), [200]);
    }
    const checkout = await this.request(
      `checkout ${JSON.stringify(lines)} in ${step.currency}${step.guest ? ' as a guest' : ''}`,
      () => call(cart, '/checkout', 'POST', {}, as),
      [201],
    );
    const order = checkout.body.data;
    this.log.push(`    order ${order.id}: total ${order.total}, discount ${order.discountTotal}, shipping ${order.shippingTotal}, tax ${order.taxTotal}, paid ${order.amountPaid}`);
    this.placed(order, step.guest, step.currency);
    let due = minor(order.total) - minor(order.amountPaid);
    if (!step.guest && step.credit !== 'none') {
      const amount = Math.min(this.creditIn(step.currency), step.credit === 'all' ? due : Math.floor(due / 2));
      if (amount > 0) {
        await this.pay(order.id, 'store_credit', amount);
        due -= amount;
      }
    }
    if (due > 0 && step.rest !== 'none') await this.pay(order.id, step.rest);
  }

  private async payOwed(orderId: string, step: Extract<Step, { kind: 'pay' }>, due: number) {
    const model = this.modelOf(orderId);
    const amount = step.half && due > 1 ? Math.floor(due / 2) : due;
    if (step.method === 'gift_card') {
      const [card] = await this.spendableCards(model.currency, step.card);
      if (card) {
        const json = { provider: 'gift_card', code: card.code, amount: major(Math.min(amount, card.balance)) };
        return this.request(`pay ${orderId} by gift card ${card.id} ${json.amount}`, this.post(`/api/orders/${orderId}/payments`, json), [201]);
      }
    }
    if (step.method === 'store_credit' && !model.guest && this.creditIn(model.currency) > 0) {
      return this.pay(orderId, 'store_credit', Math.min(amount, this.creditIn(model.currency)));
    }
    return this.pay(orderId, step.method === 'stripe' ? 'stripe' : 'manual', amount);
  }

  /** `pay`: a payment of a pending order that owes something (by manual when the chosen means cannot pay). */
  private async payStep(step: Extract<Step, { kind: 'pay' }>) {
    const order = this.pickOrder(step.order, (o) => o.status === 'pending' && dueOn(o) > 0);
    if (order) await this.payOwed(order.id, step, dueOn(order));
  }

  private async issueGiftCard(step: Extract<Step, { kind: 'issueGiftCard' }>) {
    const res = await this.request(
      `issue a ${step.currency} gift card of ${major(step.amount)}`,
      this.post('/api/gift-cards', { amount: major(step.amount), currency: step.currency }),
      [201],
    );
    this.codes.set(res.body.data.id, res.body.data.code);
  }

  private async addCredit(step: Extract<Step, { kind: 'addCredit' }>) {
    const json = { amount: major(step.amount), currency: step.currency, note: 'conservation run' };
    await this.request(`add ${major(step.amount)} ${step.currency} store credit`, this.post(`/api/customers/${this.shop.customer.id}/credit`, json), [201]);
    this.expected.adjustments.set(step.currency, (this.expected.adjustments.get(step.currency) ?? 0) + step.amount);
  }

  private cardLinesOf(orderId: string): OrderLineRow[] {
    return linesOf(this.ledger, orderId).filter((l) => this.expected.giftCardProducts.has(l.productId));
  }

  /** The order's lines, only those that bought gift cards when `giftCardLines` and it has some. */
  private linesToPick(orderId: string, giftCardLines: boolean): OrderLineRow[] {
    const cardLines = this.cardLinesOf(orderId);
    return giftCardLines && cardLines.length ? cardLines : linesOf(this.ledger, orderId);
  }

  private async refundLines(step: Extract<Step, { kind: 'refundLines' }>) {
    const order = this.pickOrder(
      step.order,
      (o) => this.refundablePayments(o.id).length > 0,
      (o) => !step.giftCardLine || this.cardLinesOf(o.id).length > 0,
    );
    if (!order) return;
    const lines = this.linesToPick(order.id, step.giftCardLine);
    const line = lines[step.line % lines.length]!;
    const left = line.quantity - line.quantityRefunded;
    const quantity = left > 0 ? Math.min(step.quantity, left) : step.quantity;
    const payments = this.refundablePayments(order.id);
    const payment = payments[step.payment % payments.length]!;
    const toCredit = step.toCredit && !this.modelOf(order.id).guest;
    const json = { lines: [{ orderLineId: line.id, quantity }], ...(step.shipping ? { shipping: true } : {}), ...(toCredit ? { destination: 'store_credit' } : {}) };
    const what = `refund ${quantity} of line ${line.id} (${line.quantity} bought, ${line.quantityRefunded} refunded)${step.shipping ? ' and shipping' : ''} from ${payment.provider} payment ${payment.id}${toCredit ? ' to store credit' : ''}`;
    await this.request(what, this.post(`/api/payments/${payment.id}/refunds`, json), [201, 409]);
  }

  private async refundAmount(step: Extract<Step, { kind: 'refundAmount' }>) {
    const order = this.pickOrder(step.order, (o) => this.refundablePayments(o.id).length > 0);
    if (!order) return;
    const payments = this.refundablePayments(order.id);
    const payment = payments[step.payment % payments.length]!;
    const left = leftOn(this.ledger, payment);
    const amount = step.half ? Math.max(1, Math.floor(left / 2)) : left;
    await this.request(
      `refund ${major(amount)} of ${payment.provider} payment ${payment.id}`,
      this.post(`/api/payments/${payment.id}/refunds`, { amount: major(amount) }),
      [201, 409],
    );
  }

  private async ship(step: Extract<Step, { kind: 'ship' }>) {
    const order = this.pickOrder(step.order, (o) => o.status === 'processing');
    if (order) await this.request(`ship order ${order.id}`, this.post(`/api/orders/${order.id}/shipments`, { status: 'shipped' }), [201, 409]);
  }

  /** `return`: asked by staff, approved, received restocking some units, then refunded by line, exchanged or left. */
  private async returnStep(step: Extract<Step, { kind: 'return' }>) {
    const open = (o: OrderRow) => this.linesToPick(o.id, step.giftCardLine).filter((l) => l.quantity > l.quantityReturned);
    const order = this.pickOrder(
      step.order,
      (o) => ['processing', 'shipped', 'completed'].includes(o.status) && open(o).length > 0,
      (o) => !step.giftCardLine || this.cardLinesOf(o.id).length > 0,
    );
    if (!order) return;
    const lines = open(order);
    const line = lines[step.line % lines.length]!;
    const quantity = Math.min(step.quantity, line.quantity - line.quantityReturned);
    // A return of gift-card units whose cards were spent may be refused at once (409).
    const asked = await this.request(
      `return ${quantity} of line ${line.id}`,
      this.post(`/api/orders/${order.id}/returns`, { lines: [{ orderLineId: line.id, quantity, reason: 'changed_mind' }] }),
      [201, 409],
    );
    if (asked.status !== 201) return;
    const ret = asked.body.data;
    const move = (json: Record<string, unknown>) => () => api(`/api/returns/${ret.id}`, { method: 'PATCH', key: this.key, json });
    await this.request(`approve return ${ret.id}`, move({ status: 'approved' }), [200]);
    const restock = Math.min(step.restock, quantity);
    await this.request(
      `receive return ${ret.id}, restocking ${restock}`,
      move({ status: 'received', ...(restock ? { restock: [{ returnLineId: ret.lines[0].id, quantity: restock }] } : {}) }),
      [200],
    );
    this.restocked(line.variantId, restock);
    const toCredit = step.toCredit && !this.modelOf(order.id).guest;
    if (step.settle === 'refund') {
      const [payment] = this.refundablePayments(order.id);
      if (!payment) return;
      const json = { lines: [{ orderLineId: line.id, quantity }], returnId: ret.id, ...(toCredit ? { destination: 'store_credit' } : {}) };
      await this.request(`refund return ${ret.id} from ${payment.provider} payment ${payment.id}`, this.post(`/api/payments/${payment.id}/refunds`, json), [201, 409]);
    } else if (step.settle === 'exchange') {
      const product = this.shop.products[step.exchange.product]!;
      const json = { lines: [{ variantId: product.variantId, quantity: step.exchange.quantity }], ...(toCredit ? { balanceTo: 'store_credit' } : {}) };
      const res = await this.request(
        `exchange return ${ret.id} for ${step.exchange.quantity} of ${product.variantId}`,
        this.post(`/api/returns/${ret.id}/exchange`, json),
        [201, 409],
      );
      if (res.status === 201) {
        const made = res.body.data;
        this.log.push(`    value ${made.value}, credit ${made.credit}, due ${made.amountDue}, new order ${made.order.id} total ${made.order.total}`);
        const model = this.modelOf(order.id);
        this.placed(made.order, model.guest, model.currency);
      }
    }
  }

  private async cancel(step: Extract<Step, { kind: 'cancel' }>) {
    const order = this.pickOrder(step.order, (o) => o.status !== 'cancelled');
    if (!order) return;
    const res = await this.request(`cancel order ${order.id} (${order.status})`, this.post(`/api/orders/${order.id}/cancel`, {}), [200, 409]);
    if (res.status === 200) for (const line of linesOf(this.ledger, order.id)) this.restocked(line.variantId, line.quantity - line.quantityShipped);
  }
}
