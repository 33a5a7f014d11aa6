import type { StoreCreditEntry } from '../../modules/customers/schemas';
import { Field, FormErrors, type FormState, PostForm } from '../components/form';
import { Table, when } from '../components/table';
import type { Money } from '../money';

export interface StoreCreditView {
  balances: { currency: string; balance: number }[];
  entries: StoreCreditEntry[];
  total: number;
}

const linkOf = (e: StoreCreditEntry) => (e.orderId ? <a href={`/admin/orders/${e.orderId}`}>{e.refundId ?? e.paymentId ?? e.orderId}</a> : (e.returnId ?? '—'));

/** A customer's store credit on its page: balances, the latest entries, and staff's adjustment form. */
export function StoreCreditSection(v: { base: string; credit: StoreCreditView; money: Money; form: FormState; csrf: string; canWrite: boolean }) {
  const money = v.money;
  return (
    <>
      <h2>Store credit</h2>
      <p data-store-credit>
        {v.credit.balances.length ? v.credit.balances.map((b) => <strong>{money(b.balance, b.currency)} </strong>) : <span class="muted">No store credit.</span>}
      </p>
      <Table caption="Store credit entries" head={['When', 'Reason', 'Amount', 'Balance', 'From', 'Note']} count={v.credit.entries.length} empty="No entries.">
        {v.credit.entries.map((e) => (
          <tr>
            <td>{when(e.createdAt)}</td>
            <td>{e.reason}</td>
            <td class="num">{money(e.amount, e.currency)}</td>
            <td class="num">{money(e.balanceAfter, e.currency)}</td>
            <td>{linkOf(e)}</td>
            <td>{e.note ?? ''}</td>
          </tr>
        ))}
      </Table>
      {v.credit.total > v.credit.entries.length ? (
        <p class="muted">
          The latest {v.credit.entries.length} of {v.credit.total} entries.
        </p>
      ) : null}
      {v.canWrite ? (
        <PostForm action={`${v.base}/credit`} csrf={v.csrf} class="card">
          <h3>Adjust store credit</h3>
          <FormErrors form={v.form} fields={['amount', 'currency', 'note']} />
          <div class="form-row">
            <Field form={v.form} name="amount" label="Amount" type="number" step="any" required hint="Negative takes credit away (never below zero)." />
            <Field form={v.form} name="currency" label="Currency" required placeholder="USD" />
            <Field form={v.form} name="note" label="Note" required />
          </div>
          <button type="submit">Adjust</button>
        </PostForm>
      ) : null}
    </>
  );
}
