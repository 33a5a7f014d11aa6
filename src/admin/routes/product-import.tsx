import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { actorRef, vendorScope } from '../../lib/access';
import { ApiError } from '../../lib/errors';
import { importsRoutes as apiRoutes, importsService as imports } from '../../modules/imports';
import { importEnded, importListQuery, importMaxBytes } from '../../modules/imports/schemas';
import { parseList } from '../list';
import { emptyForm, type FormState } from '../components/form';
import { guard, page, sessionOf } from '../context';
import { failure, failureStatus, redirectWith } from '../form-data';
import { ImportPage, ImportProgressPage } from '../pages/product-import';
import type { Context } from 'hono';

const HERE = '/admin/products';
const BASE = '/admin/products/import';

async function importPage(c: Context<AppEnv>, form: FormState, summary: Awaited<ReturnType<typeof imports.dryRun>> | null = null, status = 200) {
  const { items: recent } = await imports.listImports(c.var.db, parseList(importListQuery, { limit: '10' }), vendorScope(c.var.principal));
  const view = <ImportPage csrf={sessionOf(c).csrfToken} form={form} maxBytes={importMaxBytes(c.env)} summary={summary} recent={recent} />;
  return page(c, { title: 'Import products', active: HERE, status }, view);
}

/** The panel's import: the API's (POST /api/products/import) with a file input, a check-only button and a page that follows the queue. */
export const importRoutes = new Hono<AppEnv>()
  .get('/', guard(apiRoutes.importProducts), (c) => importPage(c, emptyForm()))
  .post('/', guard(apiRoutes.importProducts), async (c) => {
    const body = await c.req.parseBody();
    const file = body.file;
    try {
      if (!(file instanceof File) || file.size === 0) throw ApiError.validation([{ field: 'file', problem: 'choose a CSV file', code: 'required' }]);
      if (file.size > importMaxBytes(c.env)) throw ApiError.validation([{ field: 'file', problem: `is larger than ${importMaxBytes(c.env)} bytes`, code: 'too_big' }]);
      const csv = await file.text();
      if (body.step === 'check') return importPage(c, emptyForm(), await imports.dryRun(c.var.db, csv));
      const started = await imports.startImport(c.var.db, c.env.IMPORTS_QUEUE, csv, { actor: actorRef(c.var.principal), vendorId: vendorScope(c.var.principal) });
      return redirectWith(c, `${BASE}/${started.id}`, 'Import queued: the page follows it.');
    } catch (error) {
      const form = failure(error, {});
      if (error instanceof ApiError && Array.isArray(error.details)) form.message = error.details.map((d) => d.message).join('; ');
      return importPage(c, form, null, failureStatus(error));
    }
  })
  .get('/:id', guard(apiRoutes.getImport), async (c) => {
    const job = await imports.getImport(c.var.db, c.req.param('id'), vendorScope(c.var.principal));
    if (!importEnded(job.status)) c.header('Refresh', '2');
    return page(c, { title: `Import ${job.id}`, active: HERE }, <ImportProgressPage job={job} />);
  });
