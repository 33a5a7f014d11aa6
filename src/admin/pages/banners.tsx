import type { Pagination } from '../../lib/envelope';
import { BANNER_STATUSES } from '../../modules/banners';
import type { Banner } from '../../modules/banners/schemas';
import { ActionButton, Field, FormErrors, type FormState, PostForm, Select } from '../components/form';
import { Badge, Filters, Pager, Table, when } from '../components/table';

const HERE = '/admin/content/banners';

export function BannerListPage(v: { banners: Banner[]; page: Pagination; url: string; filters: FormState; placements: string[] }) {
  return (
    <>
      <div class="actions">
        <a href={`${HERE}/new`}>+ New banner</a>
      </div>
      <Filters action={HERE}>
        <Field form={v.filters} name="q" label="Search" />
        <Select form={v.filters} name="placement" label="Placement" options={v.placements} blank="Any" />
        <Select form={v.filters} name="status" label="Status" options={BANNER_STATUSES} blank="Any" />
      </Filters>
      <Table caption="Banners" head={['Title', 'Placement', 'Position', 'Status', 'Starts (UTC)', 'Ends (UTC)']} count={v.banners.length} empty="No banners match.">
        {v.banners.map((b) => (
          <tr>
            <td>
              <a href={`${HERE}/${b.id}`}>{b.title}</a>
            </td>
            <td>
              <code>{b.placement}</code>
            </td>
            <td class="num">{b.position}</td>
            <td>
              <Badge value={b.status} />
            </td>
            <td>{when(b.startsAt)}</td>
            <td>{when(b.endsAt)}</td>
          </tr>
        ))}
      </Table>
      <Pager page={v.page} url={v.url} />
    </>
  );
}

export const BANNER_FIELDS = ['title', 'imageUrl', 'linkUrl', 'altText', 'placement', 'position', 'startsAt', 'endsAt', 'active'];

/** Creating (banner null) or editing a banner: content, placement and schedule. */
export function BannerForm(v: { banner: Banner | null; form: FormState; csrf: string }) {
  const f = v.form;
  const b = v.banner;
  const action = b ? `${HERE}/${b.id}` : `${HERE}/new`;
  return (
    <>
      <div class="actions">
        <a href={HERE}>← All banners</a>
        {b ? <Badge value={b.status} /> : null}
      </div>
      <PostForm action={action} csrf={v.csrf} class="card">
        <FormErrors form={f} fields={BANNER_FIELDS} />
        <div class="form-row">
          <Field form={f} name="title" label="Title" required />
          <Field form={f} name="placement" label="Placement" required placeholder="home-hero" hint="Where the storefront shows it: home-hero, sidebar, …" />
          <Field form={f} name="position" label="Position" type="number" min="0" hint="Lowest first within the placement." />
        </div>
        <div class="form-row">
          <Field form={f} name="imageUrl" label="Image URL" type="url" required placeholder="https://cdn.example.com/sale.jpg" />
          <Field form={f} name="altText" label="Alt text" />
          <Field form={f} name="linkUrl" label="Link" placeholder="/categories/winter" hint="An http(s) URL or a storefront path." />
        </div>
        <div class="form-row">
          <Field form={f} name="startsAt" label="Starts (UTC)" type="datetime-local" hint="Blank: from now." />
          <Field form={f} name="endsAt" label="Ends (UTC)" type="datetime-local" hint="Blank: no end." />
          <div class={`field${f.errors.active ? ' invalid' : ''}`}>
            <label class="check">
              <input type="checkbox" name="active" checked={f.values.active === 'on'} /> Active
            </label>
            <small>Off: never shown, whatever the schedule.</small>
          </div>
        </div>
        <button type="submit">{b ? 'Save banner' : 'Create banner'}</button>
      </PostForm>
      {b ? (
        <>
          <section class="card" aria-labelledby="image-title">
            <h2 id="image-title">Image</h2>
            <img src={b.imageUrl} alt={b.altText ?? ''} width={480} class="banner-image" />
          </section>
          <div class="actions">
            <ActionButton action={`${HERE}/${b.id}/delete`} csrf={v.csrf} label="Delete banner" danger confirm={`Delete the banner “${b.title}”?`} />
          </div>
        </>
      ) : null}
    </>
  );
}
