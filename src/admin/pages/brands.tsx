import type { Pagination } from '../../lib/envelope';
import type { Brand } from '../../modules/brands/schemas';
import { ActionButton, Field, FormErrors, type FormState, PostForm } from '../components/form';
import { Filters, Pager, Table } from '../components/table';

const HERE = '/admin/brands';
export const BRAND_FIELDS = ['name', 'slug', 'description', 'logoUrl'];

export function BrandListPage(v: { brands: Brand[]; page: Pagination; url: string; filters: FormState; form: FormState; csrf: string }) {
  return (
    <>
      <Filters action={HERE} exportTo="brands">
        <Field form={v.filters} name="q" label="Search" />
      </Filters>
      <Table caption="Brands" head={['Name', 'Slug', 'Description', '']} count={v.brands.length} empty="No brands match.">
        {v.brands.map((b) => (
          <tr>
            <td>
              <a href={`${HERE}/${b.id}`}>{b.name}</a>
            </td>
            <td>
              <code>{b.slug}</code>
            </td>
            <td class="muted">{b.description ? (b.description.length > 120 ? `${b.description.slice(0, 120)}…` : b.description) : '—'}</td>
            <td>
              <div class="actions">
                <a href={`${HERE}/${b.id}`}>Edit</a>
                <ActionButton action={`${HERE}/${b.id}/delete`} csrf={v.csrf} label="Delete" danger confirm={`Delete the brand “${b.name}”? Its products stay, without a brand.`} />
              </div>
            </td>
          </tr>
        ))}
      </Table>
      <Pager page={v.page} url={v.url} />
      <PostForm action={HERE} csrf={v.csrf} class="card">
        <h2>New brand</h2>
        <BrandFields form={v.form} />
        <button type="submit">Create brand</button>
      </PostForm>
    </>
  );
}

function BrandFields({ form }: { form: FormState }) {
  return (
    <>
      <FormErrors form={form} fields={BRAND_FIELDS} />
      <div class="form-row">
        <Field form={form} name="name" label="Name" required />
        <Field form={form} name="slug" label="Slug" hint="Left blank, it is made from the name." />
        <Field form={form} name="logoUrl" label="Logo URL" type="url" placeholder="https://…" />
      </div>
      <Field form={form} name="description" label="Description" type="textarea" />
    </>
  );
}

export function BrandEditPage(v: { brand: Brand; form: FormState; csrf: string }) {
  const b = v.brand;
  return (
    <>
      <div class="actions">
        <a href={HERE}>← All brands</a>
        <a href={`/admin/products?brand=${encodeURIComponent(b.id)}`}>Its products</a>
      </div>
      <PostForm action={`${HERE}/${b.id}`} csrf={v.csrf} class="card">
        <BrandFields form={v.form} />
        <button type="submit">Save brand</button>
      </PostForm>
      <ActionButton action={`${HERE}/${b.id}/delete`} csrf={v.csrf} label="Delete brand" danger confirm={`Delete the brand “${b.name}”? Its products stay, without a brand.`} />
    </>
  );
}
