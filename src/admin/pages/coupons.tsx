import { COUPON_TYPES } from '../../db/schema';
import type { Pagination } from '../../lib/envelope';
import type { Coupon } from '../../modules/coupons/coupons.schemas';
import { COUPON_STATUSES } from '../../modules/coupons/coupon-status';
import { ActionButton, Field, FormErrors, type FormState, PostForm, Select } from '../components/form';
import { Badge, Filters, Pager, Table, when } from '../components/table';

export function CouponListPage(v: { coupons: Coupon[]; page: Pagination; url: string; filters: FormState; form: FormState; csrf: string; canWrite: boolean }) {
  return (
    <>
      <Filters action="/admin/coupons">
        <Field form={v.filters} name="q" label="Search" />
        <Select form={v.filters} name="status" label="Status" options={COUPON_STATUSES} blank="Any" />
      </Filters>
      <Table caption="Coupons" head={['Code', 'Type', 'Value', 'Status', 'Used', 'Ends', '']} count={v.coupons.length} empty="No coupons match.">
        {v.coupons.map((c) => (
          <tr>
            <td>
              <code>{c.code}</code>
              {c.description ? <div class="muted">{c.description}</div> : null}
            </td>
            <td>{c.type}</td>
            <td class="num">{c.type === 'percentage' ? `${c.value}%` : c.value.toFixed(2)}</td>
            <td>
              <Badge value={c.status} />
            </td>
            <td class="num">
              {c.timesUsed}
              {c.usageLimit ? ` / ${c.usageLimit}` : ''}
            </td>
            <td>{when(c.endsAt)}</td>
            <td>
              {v.canWrite ? (
                <div class="actions">
                  <ActionButton action={`/admin/coupons/${c.id}/active`} csrf={v.csrf} label={c.active ? 'Deactivate' : 'Activate'} fields={{ active: c.active ? 'false' : 'true' }} />
                  {c.timesUsed === 0 ? <ActionButton action={`/admin/coupons/${c.id}/delete`} csrf={v.csrf} label="Delete" danger confirm={`Delete coupon ${c.code}?`} /> : null}
                </div>
              ) : null}
            </td>
          </tr>
        ))}
      </Table>
      <Pager page={v.page} url={v.url} />
      {v.canWrite ? (
        <PostForm action="/admin/coupons" csrf={v.csrf} class="card">
          <h2>New coupon</h2>
          <FormErrors form={v.form} fields={['code', 'type', 'value', 'description', 'usageLimit', 'endsAt']} />
          <div class="form-row">
            <Field form={v.form} name="code" label="Code" required placeholder="SUMMER-10" />
            <Select form={v.form} name="type" label="Type" options={COUPON_TYPES} />
            <Field form={v.form} name="value" label="Value" type="number" step="0.01" min="0" required hint="Percent, or an amount in the default currency." />
            <Field form={v.form} name="usageLimit" label="Usage limit" type="number" min="1" hint="Blank: unlimited." />
            <Field form={v.form} name="endsAt" label="Ends on" type="date" />
          </div>
          <Field form={v.form} name="description" label="Description" />
          <button type="submit">Create coupon</button>
        </PostForm>
      ) : null}
    </>
  );
}
