import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { renderMarkdown } from '../../lib/markdown';
import { pageListQuery, pageRoutes as routes, pagesService as service } from '../../modules/pages';
import { CreatePageBody, type Page, UpdatePageBody } from '../../modules/pages/schemas';
import { contentWriters, utcInstant, utcLocal } from '../components/content';
import { emptyForm, type FormState } from '../components/form';
import { guard, page, sessionOf } from '../context';
import { failure, failureStatus, orNull, type Posted, readForm, redirectWith, refill, str, validate } from '../form-data';
import { listQuery, pageOf } from '../list';
import { ContentPageEditPage, ContentPageListPage, ContentPageNewPage } from '../pages/content-pages';

const HERE = '/admin/content/pages';
type C = Context<AppEnv>;

/** The page form as the API's body: blanks left out when creating, cleared (null) when editing. */
function pageBody(form: Posted, creating: boolean) {
  const clear = creating ? (name: string) => str(form, name) : (name: string) => orNull(form, name);
  return {
    title: str(form, 'title'),
    slug: str(form, 'slug'),
    // The body is kept as written (no trim): Markdown can end in meaningful whitespace.
    body: form.body?.[0] ?? (creating ? undefined : ''),
    seoTitle: clear('seoTitle'),
    seoDescription: clear('seoDescription'),
  };
}

/** "Preview" renders the body with the API's renderer and shows the form again, unsaved. */
const previewing = (form: Posted) => str(form, 'intent') === 'preview';
const previewOf = (form: Posted) => renderMarkdown(form.body?.[0] ?? '');

const pageValues = (p: Page): Record<string, unknown> => ({ ...p, scheduleAt: utcLocal(p.publishedAt && p.publishedAt > new Date().toISOString() ? p.publishedAt : null) });

async function editPage(c: C, id: string, forms: { page?: FormState; schedule?: FormState; preview?: string } = {}, status = 200) {
  const current = await service.getPage(c.var.db, id, c.var.principal);
  const view = (
    <ContentPageEditPage
      page={current}
      form={forms.page ?? emptyForm(pageValues(current))}
      schedule={forms.schedule ?? emptyForm(pageValues(current))}
      preview={forms.preview}
      csrf={sessionOf(c).csrfToken}
    />
  );
  return page(c, { title: current.title, active: HERE, status }, view);
}

function newPage(c: C, form: FormState, preview?: string, status = 200) {
  return page(c, { title: 'New page', active: HERE, status }, <ContentPageNewPage form={form} preview={preview} csrf={sessionOf(c).csrfToken} />);
}

export const contentPageRoutes = new Hono<AppEnv>()
  .get('/', contentWriters, async (c) => {
    const { query, values } = listQuery(c, pageListQuery);
    const { items, total } = await service.listPages(c.var.db, query, c.var.principal);
    return page(c, { title: 'Pages', active: HERE }, <ContentPageListPage pages={items} page={pageOf(query, total)} url={c.req.url} filters={emptyForm(values)} />);
  })
  .get('/new', guard(routes.create), (c) => newPage(c, emptyForm()))
  .post('/new', guard(routes.create), async (c) => {
    const form = await readForm(c);
    if (previewing(form)) return newPage(c, emptyForm(refill(form)), await previewOf(form));
    try {
      const created = await service.createPage(c.var.db, validate(CreatePageBody, pageBody(form, true)));
      return redirectWith(c, `${HERE}/${created.id}`, `Page “${created.title}” created as a draft.`);
    } catch (error) {
      return newPage(c, failure(error, refill(form)), undefined, failureStatus(error));
    }
  })
  .get('/:id', contentWriters, (c) => editPage(c, c.req.param('id')))
  .post('/:id', guard(routes.update), async (c) => {
    const id = c.req.param('id');
    const form = await readForm(c);
    if (previewing(form)) return editPage(c, id, { page: emptyForm(refill(form)), preview: await previewOf(form) });
    try {
      const updated = await service.updatePage(c.var.db, id, validate(UpdatePageBody, pageBody(form, false)));
      return redirectWith(c, `${HERE}/${updated.id}`, 'Page saved.');
    } catch (error) {
      return editPage(c, id, { page: failure(error, refill(form)) }, failureStatus(error));
    }
  })
  .post('/:id/publish', guard(routes.update), async (c) => {
    // No date: the service publishes now (and a scheduled page's date is replaced by now).
    const updated = await service.updatePage(c.var.db, c.req.param('id'), validate(UpdatePageBody, { status: 'published', publishedAt: null }));
    return redirectWith(c, `${HERE}/${updated.id}`, `“${updated.title}” is published.`);
  })
  .post('/:id/schedule', guard(routes.update), async (c) => {
    const id = c.req.param('id');
    const form = await readForm(c);
    try {
      const when = utcInstant(form, 'scheduleAt');
      if (when === undefined) throw ApiError.validation([{ field: 'scheduleAt', problem: 'is required', code: 'required' }]);
      const updated = await service.updatePage(c.var.db, id, validate(UpdatePageBody, { status: 'published', publishedAt: when }));
      const future = updated.publishedAt! > new Date().toISOString();
      return redirectWith(
        c,
        `${HERE}/${updated.id}`,
        future ? `“${updated.title}” is scheduled for ${updated.publishedAt!.slice(0, 16).replace('T', ' ')} UTC.` : `“${updated.title}” is published.`,
      );
    } catch (error) {
      return editPage(c, id, { schedule: failure(error, refill(form), { publishedAt: 'scheduleAt' }) }, failureStatus(error));
    }
  })
  .post('/:id/unpublish', guard(routes.update), async (c) => {
    const updated = await service.updatePage(c.var.db, c.req.param('id'), validate(UpdatePageBody, { status: 'draft' }));
    return redirectWith(c, `${HERE}/${updated.id}`, `“${updated.title}” is a draft again.`);
  })
  .post('/:id/delete', guard(routes.delete), async (c) => {
    await service.deletePage(c.var.db, c.req.param('id'));
    return redirectWith(c, HERE, 'Page deleted.');
  });
