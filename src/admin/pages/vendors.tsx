import { VENDOR_STATUSES } from '../../db/schema';
import type { Pagination } from '../../lib/envelope';
import type { Vendor } from '../../modules/vendors/schemas';
import { ActionButton, Field, FormErrors, type FormState, PostForm, Select } from '../components/form';
import { Badge, Filters, Pager, Table, when } from '../components/table';

const HERE = '/admin/vendors';
export const VENDOR_FIELDS = ['name', 'slug', 'email', 'status', 'description'];

function StatusButton({ vendor, csrf }: { vendor: Vendor; csrf: string }) {
  return vendor.status === 'active' ? (
    <ActionButton
      action={`${HERE}/${vendor.id}/status`}
      csrf={csrf}
      label="Suspend"
      danger
      fields={{ status: 'suspended' }}
      confirm={`Suspend “${vendor.name}”? Its users are refused until it is reactivated.`}
    />
  ) : (
    <ActionButton action={`${HERE}/${vendor.id}/status`} csrf={csrf} label="Reactivate" fields={{ status: 'active' }} />
  );
}

export function VendorListPage(v: { vendors: Vendor[]; page: Pagination; url: string; filters: FormState; form: FormState; csrf: string; canWrite: boolean }) {
  return (
    <>
      <Filters action={HERE} exportTo="vendors">
        <Field form={v.filters} name="q" label="Search" />
        <Select form={v.filters} name="status" label="Status" options={VENDOR_STATUSES} blank="Any" />
      </Filters>
      <Table caption="Vendors" head={['Name', 'Email', 'Status', 'Since', '']} count={v.vendors.length} empty="No vendors match.">
        {v.vendors.map((vendor) => (
          <tr>
            <td>
              <a href={`${HERE}/${vendor.id}`}>{vendor.name}</a>
              <div class="muted">
                <code>{vendor.slug}</code>
              </div>
            </td>
            <td>{vendor.email ?? '—'}</td>
            <td>
              <Badge value={vendor.status} />
            </td>
            <td>{when(vendor.createdAt)}</td>
            <td>{v.canWrite ? <StatusButton vendor={vendor} csrf={v.csrf} /> : null}</td>
          </tr>
        ))}
      </Table>
      <Pager page={v.page} url={v.url} />
      {v.canWrite ? (
        <PostForm action={HERE} csrf={v.csrf} class="card">
          <h2>New vendor</h2>
          <VendorFields form={v.form} />
          <button type="submit">Create vendor</button>
        </PostForm>
      ) : null}
    </>
  );
}

function VendorFields({ form }: { form: FormState }) {
  return (
    <>
      <FormErrors form={form} fields={VENDOR_FIELDS} />
      <div class="form-row">
        <Field form={form} name="name" label="Name" required />
        <Field form={form} name="slug" label="Slug" hint="Left blank, it is made from the name." />
        <Field form={form} name="email" label="Email" type="email" autocomplete="off" />
        <Select form={form} name="status" label="Status" options={VENDOR_STATUSES} />
      </div>
      <Field form={form} name="description" label="Description" type="textarea" />
    </>
  );
}

export function VendorEditPage(v: { vendor: Vendor; form: FormState; csrf: string; canWrite: boolean }) {
  const vendor = v.vendor;
  return (
    <>
      <div class="actions">
        <a href={HERE}>← All vendors</a>
        <Badge value={vendor.status} />
        <a href={`/admin/products?vendor=${encodeURIComponent(vendor.id)}`}>Its products</a>
        {v.canWrite ? <StatusButton vendor={vendor} csrf={v.csrf} /> : null}
      </div>
      {v.canWrite ? (
        <>
          <PostForm action={`${HERE}/${vendor.id}`} csrf={v.csrf} class="card">
            <VendorFields form={v.form} />
            <button type="submit">Save vendor</button>
          </PostForm>
          <ActionButton
            action={`${HERE}/${vendor.id}/delete`}
            csrf={v.csrf}
            label="Delete vendor"
            danger
            confirm={`Delete “${vendor.name}”? Its products stay, without a vendor. A vendor with users cannot be deleted.`}
          />
        </>
      ) : (
        <dl class="facts card">
          <dt>Slug</dt>
          <dd>{vendor.slug}</dd>
          <dt>Email</dt>
          <dd>{vendor.email ?? '—'}</dd>
          <dt>Description</dt>
          <dd>{vendor.description ?? '—'}</dd>
        </dl>
      )}
    </>
  );
}
