import { api } from '../helpers';
import type { Ledger } from './money-ledger';

/**
 * The API's view of what a step touched, against the ledger read from D1 (money-ledger.ts): the
 * touched orders and their payments, the gift cards whose balance moved, the customer's store
 * credit once it moved. The invariants are checked on the ledger, so this keeps the API honest
 * about the same rows.
 */

const minor = (major: number) => Math.round(major * 100);

export interface Touched {
  orderIds: Iterable<string>;
  key: string;
  customerId: string;
}

export async function readBackProblems(before: Ledger, after: Ledger, touched: Touched): Promise<string[]> {
  const problems: string[] = [];
  const read = async (path: string) => {
    const res = await api(path, { key: touched.key });
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  for (const id of touched.orderIds) {
    const row = after.orders.find((o) => o.id === id)!;
    const { data: order } = await read(`/api/orders/${id}`);
    const shown = { status: order.status, total: minor(order.total), amountPaid: minor(order.amountPaid), amountRefunded: minor(order.amountRefunded) };
    const stored = { status: row.status, total: row.total, amountPaid: row.amountPaid, amountRefunded: row.amountRefunded };
    if (JSON.stringify(shown) !== JSON.stringify(stored)) problems.push(`GET /api/orders/${id} shows ${JSON.stringify(shown)}, the database ${JSON.stringify(stored)}`);
    for (const line of order.lines as { id: string; quantityRefunded: number }[]) {
      const lineRow = after.lines.find((l) => l.id === line.id);
      if (lineRow?.quantityRefunded !== line.quantityRefunded)
        problems.push(`GET /api/orders/${id}: line ${line.id} shows ${line.quantityRefunded} refunded, the database ${lineRow?.quantityRefunded}`);
    }
    const { data: paid } = await read(`/api/orders/${id}/payments?limit=100`);
    const shownPayments = (paid as { id: string; status: string; amount: number; amountRefunded: number }[])
      .map((p) => [p.id, p.status, minor(p.amount), minor(p.amountRefunded)])
      .sort();
    const storedPayments = after.payments
      .filter((p) => p.orderId === id)
      .map((p) => [p.id, p.status, p.amount, p.amountRefunded])
      .sort();
    if (JSON.stringify(shownPayments) !== JSON.stringify(storedPayments)) {
      problems.push(`GET /api/orders/${id}/payments shows ${JSON.stringify(shownPayments)}, the database ${JSON.stringify(storedPayments)}`);
    }
  }
  const cardState = (ledger: Ledger, id: string) => {
    const card = ledger.cards.find((c) => c.id === id);
    return card && JSON.stringify([card.balance, card.status, ledger.transactions.filter((t) => t.giftCardId === id).length]);
  };
  for (const card of after.cards.filter((c) => cardState(before, c.id) !== cardState(after, c.id))) {
    const { data: shown } = await read(`/api/gift-cards/${card.id}`);
    const spent = (shown.transactions as { amount: number }[]).reduce((total, t) => total + minor(t.amount), 0);
    if (minor(shown.balance) !== card.balance || shown.status !== card.status || spent !== card.balance) {
      problems.push(
        `GET /api/gift-cards/${card.id} shows ${shown.status}, balance ${shown.balance} (transactions ${spent / 100}), the database ${card.status}, ${card.balance / 100}`,
      );
    }
  }
  if (JSON.stringify([...before.creditBalances].sort()) !== JSON.stringify([...after.creditBalances].sort())) {
    const shown = await read(`/api/customers/${touched.customerId}/credit`);
    const balances = (shown.balances as { currency: string; balance: number }[]).map((b) => [b.currency, minor(b.balance)]).sort();
    if (JSON.stringify(balances) !== JSON.stringify([...after.creditBalances].sort())) {
      problems.push(`GET /api/customers/${touched.customerId}/credit shows ${JSON.stringify(balances)}, the database ${JSON.stringify([...after.creditBalances].sort())}`);
    }
  }
  return problems;
}
