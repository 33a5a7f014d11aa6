import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { brandListQuery, brandRoutes as routes, brandsService as service } from '../../modules/brands';
import { CreateBrandBody, UpdateBrandBody } from '../../modules/brands/schemas';
import { emptyForm, type FormState } from '../components/form';
import { guard, page, sessionOf } from '../context';
import { failure, failureStatus, orNull, type Posted, readForm, redirectWith, refill, str, validate } from '../form-data';
import { listQuery, pageOf } from '../list';
import { BrandEditPage, BrandListPage } from '../pages/brands';

const HERE = '/admin/brands';
type C = Context<AppEnv>;

/** The brand form as the API's body: blanks left out when creating, cleared (null) when editing. */
function brandBody(form: Posted, creating: boolean) {
  const clear = creating ? (name: string) => str(form, name) : (name: string) => orNull(form, name);
  return { name: str(form, 'name'), slug: str(form, 'slug'), description: clear('description'), logoUrl: clear('logoUrl') };
}

async function listPage(c: C, form: FormState, status = 200) {
  const { query, values } = listQuery(c, brandListQuery);
  const { items, total } = await service.listBrands(c.var.db, query);
  const view = <BrandListPage brands={items} page={pageOf(query, total)} url={c.req.url} filters={emptyForm(values)} form={form} csrf={sessionOf(c).csrfToken} />;
  return page(c, { title: 'Brands', active: HERE, status }, view);
}

async function editPage(c: C, id: string, form?: FormState, status = 200) {
  const brand = await service.getBrand(c.var.db, id);
  const view = <BrandEditPage brand={brand} form={form ?? emptyForm(brand)} csrf={sessionOf(c).csrfToken} />;
  return page(c, { title: brand.name, active: HERE, status }, view);
}

/** The list is public in the API; in the panel it is for those who manage brands. */
const writers = guard(routes.create);

export const brandRoutes = new Hono<AppEnv>()
  .get('/', writers, (c) => listPage(c, emptyForm()))
  .post('/', guard(routes.create), async (c) => {
    const form = await readForm(c);
    try {
      const brand = await service.createBrand(c.var.db, validate(CreateBrandBody, brandBody(form, true)));
      return redirectWith(c, HERE, `Brand “${brand.name}” created.`);
    } catch (error) {
      return listPage(c, failure(error, refill(form)), failureStatus(error));
    }
  })
  .get('/:id', writers, (c) => editPage(c, c.req.param('id')))
  .post('/:id', guard(routes.update), async (c) => {
    const id = c.req.param('id');
    const form = await readForm(c);
    try {
      const brand = await service.updateBrand(c.var.db, id, validate(UpdateBrandBody, brandBody(form, false)));
      return redirectWith(c, HERE, `Brand “${brand.name}” saved.`);
    } catch (error) {
      return editPage(c, id, failure(error, refill(form)), failureStatus(error));
    }
  })
  .post('/:id/delete', guard(routes.delete), async (c) => {
    const brand = await service.getBrand(c.var.db, c.req.param('id'));
    await service.deleteBrand(c.var.db, brand.id);
    return redirectWith(c, HERE, `Brand “${brand.name}” deleted; its products stay, without a brand.`);
  });
