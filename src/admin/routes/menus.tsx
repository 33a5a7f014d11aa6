import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { ApiError, type ErrorDetail } from '../../lib/errors';
import { menuListQuery, menuRoutes as routes, menusService as service } from '../../modules/menus';
import { CreateMenuBody, type MenuItem, UpdateMenuBody } from '../../modules/menus/schemas';
import { contentWriters } from '../components/content';
import { emptyForm, type FormState } from '../components/form';
import { guard, page, sessionOf } from '../context';
import { failure, failureStatus, type Posted, readForm, redirectWith, refill, str, validate } from '../form-data';
import { listQuery, pageOf } from '../list';
import { MenuEditPage, MenuListPage } from '../pages/menus';

const HERE = '/admin/content/menus';
type C = Context<AppEnv>;

/** An item as the API's body takes it (MenuItemInput), before validation. */
interface Node {
  label: unknown;
  type: unknown;
  url?: unknown;
  targetId?: unknown;
  children: Node[];
}

/** The menu's items as read (staff view) turned back into the API's input: links by target id, URLs as URLs. */
const toNodes = (items: MenuItem[]): Node[] =>
  items.map((item) => ({
    label: item.label,
    type: item.type,
    ...(item.type === 'url' ? { url: item.url ?? undefined } : { targetId: item.targetId ?? undefined }),
    children: toNodes(item.children as MenuItem[]),
  }));

/** The nested array as PATCH /api/menus/{id} takes it: `children` only where there are some. */
const toBody = (nodes: Node[]): unknown[] => nodes.map(({ children, ...item }) => (children.length ? { ...item, children: toBody(children) } : item));

/** `0.2.1` (the form's item path) as indices; undefined when it is not one. */
function indices(path: string | undefined): number[] | undefined {
  if (path === undefined || !/^\d+(\.\d+)*$/.test(path)) return undefined;
  return path.split('.').map(Number);
}

/** The sibling list holding the item at `at`, and its index there. */
function locate(tree: Node[], at: number[]): { list: Node[]; index: number } {
  let list = tree;
  for (const i of at.slice(0, -1)) {
    const node = list[i];
    if (!node) throw notThere();
    list = node.children;
  }
  const index = at[at.length - 1]!;
  if (!list[index]) throw notThere();
  return { list, index };
}

const notThere = () => new ApiError('CONFLICT', 'That item is no longer in the menu (it changed meanwhile): look again and retry.');

/** The API's field name of the item at `at`: `items.0.children.2`. */
const apiField = (at: number[]) => `items.${at.join('.children.')}`;

type Op = 'up' | 'down' | 'indent' | 'outdent' | 'remove';
const OPS: Op[] = ['up', 'down', 'indent', 'outdent', 'remove'];

/** Reorders, nests, un-nests or removes the item at `at`, in place. */
function apply(tree: Node[], op: Op, at: number[]): void {
  const { list, index } = locate(tree, at);
  const [node] = list.slice(index, index + 1) as [Node];
  if (op === 'remove') list.splice(index, 1);
  else if (op === 'up' || op === 'down') {
    const to = op === 'up' ? index - 1 : index + 1;
    if (to < 0 || to >= list.length) throw new ApiError('CONFLICT', `“${node.label}” is already ${op === 'up' ? 'first' : 'last'} at its level.`);
    [list[index], list[to]] = [list[to]!, node];
  } else if (op === 'indent') {
    // Under the item just above it, as its last child: the API decides whether that is too deep.
    if (index === 0) throw new ApiError('CONFLICT', `“${node.label}” has no item above it at its level to go under.`);
    list.splice(index, 1);
    list[index - 1]!.children.push(node);
  } else {
    if (at.length === 1) throw new ApiError('CONFLICT', `“${node.label}” is already at the top level.`);
    const parent = locate(tree, at.slice(0, -1));
    list.splice(index, 1);
    parent.list.splice(parent.index + 1, 0, node);
  }
}

/** An API message for the panel: a `children` the schema does not know at the third level means "too deep". */
function explain(errors: ErrorDetail[]): ErrorDetail[] {
  return errors.map((e) =>
    e.code === 'unknown_field' && /\.children$/.test(e.field ?? '') ? { ...e, message: `${e.message}: menus nest at most three levels (item, child, grandchild)` } : e,
  );
}

/** Saves `tree` as the menu's items with the API's schema and service. */
async function saveItems(c: C, id: string, tree: Node[]) {
  let body: Parameters<typeof service.updateMenu>[2];
  try {
    body = validate(UpdateMenuBody, { items: toBody(tree) });
  } catch (error) {
    if (error instanceof ApiError && error.code === 'VALIDATION_ERROR') throw ApiError.validation(explain(error.details));
    throw error;
  }
  return service.updateMenu(c.var.db, id, body);
}

/** Errors about the new item's own fields go next to them; the rest is listed above the form. */
function addFailure(error: unknown, form: Posted, at: number[]): FormState {
  const state = failure(error, refill(form));
  const own = apiField(at);
  const parent = at.length > 1 ? apiField(at.slice(0, -1)) : null;
  const errors: Record<string, string> = {};
  for (const [field, message] of Object.entries(state.errors)) {
    if (field.startsWith(`${own}.`)) {
      const name = field.slice(own.length + 1);
      errors[name === 'url' || name === 'targetId' ? 'target' : name] = message;
    } else if (parent && field === `${parent}.children`) errors.parent = message;
    else errors[field] = message;
  }
  return { ...state, errors };
}

async function editPage(c: C, id: string, forms: { menu?: FormState; item?: FormState; items?: FormState } = {}, status = 200) {
  const menu = await service.getMenu(c.var.db, id, c.var.principal);
  const view = (
    <MenuEditPage
      menu={menu}
      form={forms.menu ?? emptyForm({ name: menu.name, handle: menu.handle })}
      itemForm={forms.item ?? emptyForm({ type: 'url' })}
      itemsState={forms.items ?? emptyForm()}
      csrf={sessionOf(c).csrfToken}
    />
  );
  return page(c, { title: `Menu: ${menu.name}`, active: HERE, status }, view);
}

async function listPage(c: C, form: FormState, status = 200) {
  const { query, values } = listQuery(c, menuListQuery);
  const { items, total } = await service.listMenus(c.var.db, query, c.var.principal);
  const view = <MenuListPage menus={items} page={pageOf(query, total)} url={c.req.url} filters={emptyForm(values)} form={form} csrf={sessionOf(c).csrfToken} />;
  return page(c, { title: 'Menus', active: HERE, status }, view);
}

export const menuRoutes = new Hono<AppEnv>()
  .get('/', contentWriters, (c) => listPage(c, emptyForm()))
  .post('/', guard(routes.create), async (c) => {
    const form = await readForm(c);
    try {
      const menu = await service.createMenu(c.var.db, validate(CreateMenuBody, { name: str(form, 'name'), handle: str(form, 'handle') }));
      return redirectWith(c, `${HERE}/${menu.id}`, `Menu “${menu.name}” created: add its items below.`);
    } catch (error) {
      return listPage(c, failure(error, refill(form)), failureStatus(error));
    }
  })
  .get('/:id', contentWriters, (c) => editPage(c, c.req.param('id')))
  .post('/:id', guard(routes.update), async (c) => {
    const id = c.req.param('id');
    const form = await readForm(c);
    try {
      const menu = await service.updateMenu(c.var.db, id, validate(UpdateMenuBody, { name: str(form, 'name'), handle: str(form, 'handle') }));
      return redirectWith(c, `${HERE}/${menu.id}`, 'Menu saved.');
    } catch (error) {
      return editPage(c, id, { menu: failure(error, refill(form)) }, failureStatus(error));
    }
  })
  .post('/:id/items', guard(routes.update), async (c) => {
    const id = c.req.param('id');
    const form = await readForm(c);
    const menu = await service.getMenu(c.var.db, id, c.var.principal);
    const tree = toNodes(menu.items);
    const parentPath = str(form, 'parent');
    let at: number[] = [tree.length];
    try {
      let siblings = tree;
      if (parentPath !== undefined) {
        const parent = indices(parentPath);
        if (!parent) throw ApiError.validation([{ field: 'parent', problem: 'is not an item of this menu', code: 'not_found' }]);
        const { list, index } = locate(tree, parent);
        siblings = list[index]!.children;
        at = [...parent, siblings.length];
      }
      const type = str(form, 'type');
      const target = str(form, 'target');
      siblings.push({ label: str(form, 'label'), type, ...(type === 'url' ? { url: target } : { targetId: target }), children: [] });
      await saveItems(c, menu.id, tree);
      return redirectWith(c, `${HERE}/${menu.id}`, `Item “${str(form, 'label')}” added.`);
    } catch (error) {
      return editPage(c, id, { item: addFailure(error, form, at) }, failureStatus(error));
    }
  })
  .post('/:id/items/:op', guard(routes.update), async (c) => {
    const { id, op } = c.req.param();
    if (!OPS.includes(op as Op)) throw new ApiError('NOT_FOUND', 'There is no such page in the admin panel.');
    const form = await readForm(c);
    const menu = await service.getMenu(c.var.db, id, c.var.principal);
    const tree = toNodes(menu.items);
    try {
      const at = indices(str(form, 'path'));
      if (!at) throw notThere();
      apply(tree, op as Op, at);
      await saveItems(c, menu.id, tree);
      const done = { up: 'Item moved up.', down: 'Item moved down.', indent: 'Item nested.', outdent: 'Item moved out a level.', remove: 'Item removed.' }[op as Op];
      return redirectWith(c, `${HERE}/${menu.id}`, done);
    } catch (error) {
      return editPage(c, id, { items: failure(error, {}) }, failureStatus(error));
    }
  })
  .post('/:id/delete', guard(routes.delete), async (c) => {
    await service.deleteMenu(c.var.db, c.req.param('id'));
    return redirectWith(c, HERE, 'Menu deleted.');
  });
