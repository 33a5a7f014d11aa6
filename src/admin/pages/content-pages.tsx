import { PAGE_STATUSES } from '../../db/schema';
import type { Pagination } from '../../lib/envelope';
import type { Page } from '../../modules/pages/schemas';
import { RenderedHtml } from '../components/content';
import { ActionButton, Field, FormErrors, type FormState, PostForm, Select } from '../components/form';
import { Badge, Filters, Pager, Table, when } from '../components/table';

const HERE = '/admin/content/pages';

/** As the public sees it: a published page whose date has not come is scheduled. */
export const pageState = (p: Page, now = new Date().toISOString()) => (p.status === 'draft' ? 'draft' : p.publishedAt && p.publishedAt > now ? 'scheduled' : 'published');

export function ContentPageListPage(v: { pages: Page[]; page: Pagination; url: string; filters: FormState }) {
  return (
    <>
      <div class="actions">
        <a href={`${HERE}/new`}>+ New page</a>
      </div>
      <Filters action={HERE}>
        <Field form={v.filters} name="q" label="Search" />
        <Select form={v.filters} name="status" label="Status" options={PAGE_STATUSES} blank="Any" />
      </Filters>
      <Table caption="Pages" head={['Title', 'Slug', 'Status', 'Published', 'Updated']} count={v.pages.length} empty="No pages match.">
        {v.pages.map((p) => (
          <tr>
            <td>
              <a href={`${HERE}/${p.id}`}>{p.title}</a>
            </td>
            <td>
              <code>{p.slug}</code>
            </td>
            <td>
              <Badge value={pageState(p)} />
            </td>
            <td>{when(p.publishedAt)}</td>
            <td>{when(p.updatedAt)}</td>
          </tr>
        ))}
      </Table>
      <Pager page={v.page} url={v.url} />
    </>
  );
}

export const PAGE_FIELDS = ['title', 'slug', 'body', 'seoTitle', 'seoDescription'];

/** Title, slug, Markdown body and SEO fields, with "Preview" (renders, saves nothing) beside "Save". */
function PageForm(v: { action: string; form: FormState; csrf: string; creating: boolean }) {
  const f = v.form;
  const bodyError = f.errors.body;
  return (
    <PostForm action={v.action} csrf={v.csrf} class="card">
      <FormErrors form={f} fields={PAGE_FIELDS} />
      <div class="form-row">
        <Field form={f} name="title" label="Title" required />
        <Field form={f} name="slug" label="Slug" hint="Left blank, it is made from the title." />
      </div>
      <div class={`field${bodyError ? ' invalid' : ''}`}>
        <label for="f-body">Body (Markdown)</label>
        <textarea id="f-body" name="body" rows={18} aria-describedby={bodyError ? 'f-body-hint f-body-error' : 'f-body-hint'} aria-invalid={bodyError ? 'true' : undefined}>
          {String(f.values.body ?? '')}
        </textarea>
        <small id="f-body-hint">GitHub-flavoured Markdown. HTML is allowed, but scripts, styles, event handlers and unsafe links are removed.</small>
        {bodyError ? (
          <p class="error" id="f-body-error">
            {bodyError}
          </p>
        ) : null}
      </div>
      <div class="form-row">
        <Field form={f} name="seoTitle" label="SEO title" />
        <Field form={f} name="seoDescription" label="SEO description" />
      </div>
      <div class="actions">
        <button type="submit" name="intent" value="preview" class="secondary">
          Preview
        </button>
        <button type="submit" name="intent" value="save">
          {v.creating ? 'Create draft' : 'Save page'}
        </button>
      </div>
    </PostForm>
  );
}

function Preview({ html }: { html?: string }) {
  if (html === undefined) return null;
  return (
    <section aria-labelledby="preview-title">
      <h2 id="preview-title">Preview</h2>
      <p class="muted">As the API will serve it (bodyHtml); not saved yet.</p>
      {html ? <RenderedHtml html={html} label="Rendered preview" /> : <p class="empty">The body is empty.</p>}
    </section>
  );
}

export function ContentPageNewPage(v: { form: FormState; preview?: string; csrf: string }) {
  return (
    <>
      <div class="actions">
        <a href={HERE}>← All pages</a>
      </div>
      <div class="two">
        <PageForm action={`${HERE}/new`} form={v.form} csrf={v.csrf} creating />
        <Preview html={v.preview} />
      </div>
    </>
  );
}

export function ContentPageEditPage(v: { page: Page; form: FormState; schedule: FormState; preview?: string; csrf: string }) {
  const p = v.page;
  const state = pageState(p);
  const base = `${HERE}/${p.id}`;
  return (
    <>
      <div class="actions">
        <a href={HERE}>← All pages</a>
        <Badge value={state} />
        {state !== 'draft' && p.publishedAt ? (
          <span class="muted">
            {state === 'scheduled' ? 'Goes public at ' : 'Public since '}
            {when(p.publishedAt)} UTC · <code>/api/pages/{p.slug}</code>
          </span>
        ) : (
          <span class="muted">Not public: only staff can read it.</span>
        )}
      </div>
      <div class="two">
        <PageForm action={base} form={v.form} csrf={v.csrf} creating={false} />
        {v.preview !== undefined ? (
          <Preview html={v.preview} />
        ) : (
          <section aria-labelledby="saved-title">
            <h2 id="saved-title">As published</h2>
            <p class="muted">The saved body as the API serves it (bodyHtml).</p>
            {p.bodyHtml ? <RenderedHtml html={p.bodyHtml} label="Saved page" /> : <p class="empty">The body is empty.</p>}
          </section>
        )}
      </div>
      <div class="card">
        <h2>Publishing</h2>
        <div class="actions">
          {state !== 'published' ? <ActionButton action={`${base}/publish`} csrf={v.csrf} label="Publish now" /> : null}
          {state !== 'draft' ? <ActionButton action={`${base}/unpublish`} csrf={v.csrf} label="Unpublish" confirm={`Take “${p.title}” off the store?`} /> : null}
        </div>
        <PostForm action={`${base}/schedule`} csrf={v.csrf}>
          <FormErrors form={v.schedule} fields={['scheduleAt']} />
          <div class="form-row">
            <Field form={v.schedule} name="scheduleAt" label="Publish at (UTC)" type="datetime-local" hint="The page goes public by itself at this time." />
          </div>
          <button type="submit" class="secondary">
            {state === 'scheduled' ? 'Reschedule' : 'Schedule'}
          </button>
        </PostForm>
      </div>
      <div class="actions">
        <ActionButton action={`${base}/delete`} csrf={v.csrf} label="Delete page" danger confirm={`Delete “${p.title}”? This cannot be undone.`} />
      </div>
    </>
  );
}
