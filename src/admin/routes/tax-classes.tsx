import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { hasPermission } from '../../lib/access';
import { ApiError } from '../../lib/errors';
import { taxClassListQuery, taxClassRoutes as routes, taxClassesService as taxClasses } from '../../modules/settings';
import { CreateTaxClassBody, UpdateTaxClassBody } from '../../modules/settings/schemas';
import { emptyForm, type FormState } from '../components/form';
import { guard, page, sessionOf } from '../context';
import { failure, failureStatus, readForm, redirectWith, refill, str, validate } from '../form-data';
import { firstPage } from '../list';
import { TaxClassEditPage, TaxClassesPage } from '../pages/tax-classes';

const HERE = '/admin/settings/tax-classes';
type C = Context<AppEnv>;

async function show(c: C, form?: FormState, status = 200) {
  const { items } = await taxClasses.listTaxClasses(c.var.db, firstPage(taxClassListQuery));
  const view = <TaxClassesPage classes={items} form={form ?? emptyForm()} csrf={sessionOf(c).csrfToken} canWrite={hasPermission(c.var.principal, 'settings:write')} />;
  return page(c, { title: 'Tax classes', active: HERE, status }, view);
}

async function editPage(c: C, code: string, form?: FormState, status = 200) {
  const taxClass = await taxClasses.getTaxClass(c.var.db, code.toLowerCase());
  const view = <TaxClassEditPage taxClass={taxClass} form={form ?? emptyForm({ name: taxClass.name })} csrf={sessionOf(c).csrfToken} />;
  return page(c, { title: `Tax class ${taxClass.code}`, active: HERE, status }, view);
}

export const taxClassRoutes = new Hono<AppEnv>()
  .get('/', guard(routes.list), (c) => show(c))
  .post('/', guard(routes.create), async (c) => {
    const form = await readForm(c);
    try {
      const created = await taxClasses.createTaxClass(c.var.db, validate(CreateTaxClassBody, { code: str(form, 'code') ?? '', name: str(form, 'name') ?? '' }));
      return redirectWith(c, HERE, `Tax class “${created.name}” added.`);
    } catch (error) {
      return show(c, failure(error, refill(form)), failureStatus(error));
    }
  })
  .get('/:code', guard(routes.update), (c) => editPage(c, c.req.param('code')))
  .post('/:code', guard(routes.update), async (c) => {
    const code = c.req.param('code').toLowerCase();
    const form = await readForm(c);
    try {
      const saved = await taxClasses.updateTaxClass(c.var.db, code, validate(UpdateTaxClassBody, { name: str(form, 'name') ?? '' }));
      return redirectWith(c, HERE, `Tax class ${saved.code} saved.`);
    } catch (error) {
      return editPage(c, code, failure(error, refill(form)), failureStatus(error));
    }
  })
  .post('/:code/delete', guard(routes.delete), async (c) => {
    const code = c.req.param('code').toLowerCase();
    try {
      await taxClasses.deleteTaxClass(c.var.db, code);
      return redirectWith(c, HERE, `Tax class ${code} deleted, with its tax rates.`);
    } catch (error) {
      // The API's refusal (built in, used by products) goes back to the list as the flash.
      if (!(error instanceof ApiError) || error.status !== 409) throw error;
      return redirectWith(c, HERE, error.message, 'error');
    }
  });
