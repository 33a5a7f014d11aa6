import { Hono } from 'hono';
import type { Context } from 'hono';
import type { Database } from '../../db/client';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { categoryListQuery, categoryRoutes as routes, categoriesService as service } from '../../modules/categories';
import { type Category, CreateCategoryBody, UpdateCategoryBody } from '../../modules/categories/schemas';
import { emptyForm, type FormState } from '../components/form';
import { guard, page, sessionOf } from '../context';
import { failure, failureStatus, num, orNull, type Posted, readForm, redirectWith, refill, str, validate } from '../form-data';
import { firstPage } from '../list';
import { CategoryEditPage, CategoryTreePage, type TreeRow } from '../pages/categories';

const HERE = '/admin/categories';
type C = Context<AppEnv>;

/** Every category matching `filters`, page after page, in the list's order (position, then name). */
async function allCategories(db: Database, filters: Record<string, string> = {}): Promise<Category[]> {
  const out: Category[] = [];
  for (let n = 1; ; n++) {
    const query = firstPage(categoryListQuery, { ...filters, page: String(n) });
    const { items, total } = await service.listCategories(db, query);
    out.push(...items);
    if (items.length === 0 || out.length >= total) return out;
  }
}

/** The categories depth first, children under their parent in sort order. */
export function toTree(categories: Category[]): TreeRow[] {
  const ids = new Set(categories.map((c) => c.id));
  const children = new Map<string | null, Category[]>();
  for (const c of categories) {
    const parent = c.parentId && ids.has(c.parentId) ? c.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), c]);
  }
  const rows: TreeRow[] = [];
  const walk = (parent: string | null, depth: number) => {
    const siblings = children.get(parent) ?? [];
    siblings.forEach((category, i) => {
      rows.push({ category, depth, first: i === 0, last: i === siblings.length - 1, children: children.get(category.id)?.length ?? 0 });
      walk(category.id, depth + 1);
    });
  };
  walk(null, 0);
  return rows;
}

/** The category form as the API's body: blanks left out when creating, cleared (null) when editing. */
function categoryBody(form: Posted, creating: boolean) {
  return {
    name: str(form, 'name'),
    slug: str(form, 'slug'),
    parentId: creating ? str(form, 'parentId') : orNull(form, 'parentId'),
    position: num(form, 'position'),
    description: creating ? str(form, 'description') : orNull(form, 'description'),
  };
}

async function treePage(c: C, form: FormState, status = 200) {
  const tree = toTree(await allCategories(c.var.db));
  return page(c, { title: 'Categories', active: HERE, status }, <CategoryTreePage tree={tree} form={form} csrf={sessionOf(c).csrfToken} />);
}

async function editPage(c: C, id: string, form?: FormState, status = 200) {
  const category = await service.getCategory(c.var.db, id);
  const tree = toTree(await allCategories(c.var.db));
  const values = { ...category, parentId: category.parentId ?? '' };
  const view = <CategoryEditPage category={category} tree={tree} form={form ?? emptyForm(values)} csrf={sessionOf(c).csrfToken} />;
  return page(c, { title: category.name, active: HERE, status }, view);
}

/** The list is public in the API; in the panel it is for those who manage categories. */
const writers = guard(routes.create);

export const categoryRoutes = new Hono<AppEnv>()
  .get('/', writers, (c) => treePage(c, emptyForm({ position: '0' })))
  .post('/', guard(routes.create), async (c) => {
    const form = await readForm(c);
    try {
      const category = await service.createCategory(c.var.db, validate(CreateCategoryBody, categoryBody(form, true)));
      return redirectWith(c, HERE, `Category “${category.name}” created.`);
    } catch (error) {
      return treePage(c, failure(error, refill(form)), failureStatus(error));
    }
  })
  .get('/:id', writers, (c) => editPage(c, c.req.param('id')))
  .post('/:id', guard(routes.update), async (c) => {
    const id = c.req.param('id');
    const form = await readForm(c);
    try {
      const category = await service.updateCategory(c.var.db, id, validate(UpdateCategoryBody, categoryBody(form, false)));
      return redirectWith(c, HERE, `Category “${category.name}” saved.`);
    } catch (error) {
      return editPage(c, id, failure(error, refill(form)), failureStatus(error));
    }
  })
  /** Up or down among its siblings: the siblings are renumbered 0, 1, 2... in their new order. */
  .post('/:id/move', guard(routes.update), async (c) => {
    const direction = str(await readForm(c), 'direction');
    if (direction !== 'up' && direction !== 'down') throw ApiError.badParameter('direction', "must be 'up' or 'down'");
    const category = await service.getCategory(c.var.db, c.req.param('id'));
    const siblings = await allCategories(c.var.db, { parent: category.parentId ?? 'root' });
    const at = siblings.findIndex((s) => s.id === category.id);
    const to = direction === 'up' ? at - 1 : at + 1;
    if (at < 0 || to < 0 || to >= siblings.length) return redirectWith(c, HERE, `“${category.name}” is already ${direction === 'up' ? 'first' : 'last'}.`);
    [siblings[at], siblings[to]] = [siblings[to]!, siblings[at]!];
    for (const [position, sibling] of siblings.entries()) {
      if (sibling.position !== position) await service.updateCategory(c.var.db, sibling.id, validate(UpdateCategoryBody, { position }));
    }
    return redirectWith(c, HERE, `“${category.name}” moved ${direction}.`);
  })
  .post('/:id/delete', guard(routes.delete), async (c) => {
    const category = await service.getCategory(c.var.db, c.req.param('id'));
    try {
      await service.deleteCategory(c.var.db, category.id);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'CONFLICT') return redirectWith(c, HERE, error.message, 'error');
      throw error;
    }
    return redirectWith(c, HERE, `Category “${category.name}” deleted.`);
  });
