import type { Pagination } from '../../lib/envelope';
import type { GiftCard } from '../../modules/gift-cards/schemas';
import { ActionButton, Field, FormErrors, type FormState, PostForm, Select } from '../components/form';
import { SecretOnce } from '../components/secret';
import { Badge, Pager, Table, when } from '../components/table';
import type { Money } from '../money';

export interface GiftCardsView {
  cards: GiftCard[];
  money: Money;
  page: Pagination;
  url: string;
  currencies: string[];
  form: FormState;
  csrf: string;
  canWrite: boolean;
  /** The card just issued, with its code: shown this once. */
  issued?: GiftCard & { code: string };
}

const HERE = '/admin/gift-cards';

export function GiftCardsPage(v: GiftCardsView) {
  return (
    <>
      {v.issued ? (
        <SecretOnce
          title={`Gift card ending ${v.issued.last4}: ${v.money(v.issued.balance, v.issued.currency)}`}
          value={v.issued.code}
          id="new-gift-card-code"
          note="Only a hash is stored, so nobody can show the code again: hand it over now."
        />
      ) : null}
      {v.canWrite ? (
        <section class="card" aria-labelledby="new-gift-card">
          <h2 id="new-gift-card">Issue a gift card</h2>
          <FormErrors form={v.form} fields={['amount', 'currency', 'expiresAt', 'recipientEmail', 'recipientName', 'message']} />
          <PostForm action={HERE} csrf={v.csrf}>
            <div class="form-row">
              <Field form={v.form} name="amount" label="Amount" type="number" step="any" required />
              <Select form={v.form} name="currency" label="Currency" options={v.currencies} />
              <Field form={v.form} name="expiresAt" label="Expires on" type="date" hint="Optional; the card stops paying at the end of that day (UTC)." />
            </div>
            <div class="form-row">
              <Field form={v.form} name="recipientEmail" label="Recipient email" type="email" hint="Optional." />
              <Field form={v.form} name="recipientName" label="Recipient name" />
            </div>
            <Field form={v.form} name="message" label="Message" type="textarea" />
            <button type="submit">Issue card</button>
          </PostForm>
        </section>
      ) : null}
      <h2>Gift cards</h2>
      <Table caption="Gift cards" head={['Code', 'Balance', 'Issued for', 'Status', 'Recipient', 'Expires', 'Issued', '']} count={v.cards.length} empty="No gift cards yet.">
        {v.cards.map((card) => (
          <tr>
            <td>
              <code>…{card.last4}</code>
            </td>
            <td>{v.money(card.balance, card.currency)}</td>
            <td>{v.money(card.initialAmount, card.currency)}</td>
            <td>
              <Badge value={card.status} />
            </td>
            <td>{card.recipientEmail ?? '—'}</td>
            <td>{when(card.expiresAt)}</td>
            <td>{when(card.createdAt)}</td>
            <td>
              {v.canWrite ? (
                card.status === 'disabled' ? (
                  <ActionButton action={`${HERE}/${card.id}/enable`} csrf={v.csrf} label="Enable" />
                ) : (
                  <ActionButton
                    action={`${HERE}/${card.id}/disable`}
                    csrf={v.csrf}
                    label="Disable"
                    danger
                    confirm={`Disable the card ending ${card.last4}? It pays nothing until enabled again.`}
                  />
                )
              ) : null}
            </td>
          </tr>
        ))}
      </Table>
      <Pager page={v.page} url={v.url} />
    </>
  );
}
