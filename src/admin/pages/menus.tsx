import { MENU_LINK_TYPES } from '../../db/schema';
import type { Pagination } from '../../lib/envelope';
import type { Menu, MenuItem } from '../../modules/menus/schemas';
import { ActionButton, Field, FormErrors, type FormState, PostForm, Select } from '../components/form';
import { Filters, Pager, Table, when } from '../components/table';

const HERE = '/admin/content/menus';

const countItems = (items: MenuItem[]): number => items.reduce((n, item) => n + 1 + countItems(item.children as MenuItem[]), 0);

export function MenuListPage(v: { menus: Menu[]; page: Pagination; url: string; filters: FormState; form: FormState; csrf: string }) {
  return (
    <>
      <Filters action={HERE}>
        <Field form={v.filters} name="q" label="Search" />
      </Filters>
      <Table caption="Menus" head={['Name', 'Handle', 'Items', 'Updated']} count={v.menus.length} empty="No menus match.">
        {v.menus.map((m) => (
          <tr>
            <td>
              <a href={`${HERE}/${m.id}`}>{m.name}</a>
            </td>
            <td>
              <code>{m.handle}</code>
            </td>
            <td class="num">{countItems(m.items)}</td>
            <td>{when(m.updatedAt)}</td>
          </tr>
        ))}
      </Table>
      <Pager page={v.page} url={v.url} />
      <PostForm action={HERE} csrf={v.csrf} class="card">
        <h2>New menu</h2>
        <FormErrors form={v.form} fields={['name', 'handle']} />
        <div class="form-row">
          <Field form={v.form} name="name" label="Name" required placeholder="Main navigation" />
          <Field form={v.form} name="handle" label="Handle" hint="The storefront reads the menu by it (/api/menus/main). Left blank, it is made from the name." />
        </div>
        <button type="submit">Create menu</button>
      </PostForm>
    </>
  );
}

const TYPE_LABELS: Record<(typeof MENU_LINK_TYPES)[number], string> = { url: 'URL or path', page: 'Page', category: 'Category', product: 'Product' };

/** Every item with its path (`0.1`) and depth, in reading order: the choices of "Put under". */
function flatten(items: MenuItem[], prefix: number[] = []): { path: string; depth: number; item: MenuItem }[] {
  return items.flatMap((item, i) => {
    const at = [...prefix, i];
    return [{ path: at.join('.'), depth: at.length, item }, ...flatten(item.children as MenuItem[], at)];
  });
}

function ItemTree(v: { items: MenuItem[]; prefix: number[]; menuId: string; csrf: string }) {
  const base = `${HERE}/${v.menuId}/items`;
  return (
    <ol class="menu-tree">
      {v.items.map((item, i) => {
        const at = [...v.prefix, i];
        const path = at.join('.');
        const button = (op: string, label: string, title: string, extra: { danger?: boolean; confirm?: string } = {}) => (
          <PostForm action={`${base}/${op}`} csrf={v.csrf} class="inline" confirm={extra.confirm}>
            <input type="hidden" name="path" value={path} />
            <button type="submit" class={extra.danger ? 'danger' : 'secondary'} title={title} aria-label={`${title}: ${item.label}`}>
              {label}
            </button>
          </PostForm>
        );
        const children = item.children as MenuItem[];
        return (
          <li data-path={path}>
            <div class="actions">
              <strong>{item.label}</strong>
              <span class="muted">
                {item.type === 'url' ? '' : `${item.type} · `}
                {item.url ? <code>{item.url}</code> : <span class="error">target gone</span>}
              </span>
              {i > 0 ? button('up', '↑', 'Move up') : null}
              {i < v.items.length - 1 ? button('down', '↓', 'Move down') : null}
              {i > 0 ? button('indent', '→', 'Nest under the item above') : null}
              {at.length > 1 ? button('outdent', '←', 'Move out a level') : null}
              {button('remove', 'Remove', 'Remove', { danger: true, confirm: children.length ? `Remove “${item.label}” and the items under it?` : undefined })}
            </div>
            {children.length ? <ItemTree items={children} prefix={at} menuId={v.menuId} csrf={v.csrf} /> : null}
          </li>
        );
      })}
    </ol>
  );
}

export function MenuEditPage(v: { menu: Menu; form: FormState; itemForm: FormState; itemsState: FormState; csrf: string }) {
  const m = v.menu;
  const problems = Object.entries(v.itemsState.errors);
  const choices: [string, string][] = flatten(m.items).map(({ path, depth, item }) => [path, `${'— '.repeat(depth - 1)}${item.label}`]);
  return (
    <>
      <div class="actions">
        <a href={HERE}>← All menus</a>
        <span class="muted">
          Read by the storefront at <code>/api/menus/{m.handle}</code>
        </span>
      </div>
      <section class="card" aria-labelledby="items-title">
        <h2 id="items-title">Items</h2>
        {v.itemsState.message || problems.length ? (
          <div class="flash error" role="alert">
            <p>{v.itemsState.message ?? 'The API refused the change:'}</p>
            {problems.length ? (
              <ul>
                {problems.map(([field, message]) => (
                  <li>
                    <code>{field}</code> {message}
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null}
        {m.items.length ? <ItemTree items={m.items} prefix={[]} menuId={m.id} csrf={v.csrf} /> : <p class="empty">No items yet.</p>}
        <p class="muted">Menus nest three levels deep: an item, its children and their children.</p>
      </section>
      <PostForm action={`${HERE}/${m.id}/items`} csrf={v.csrf} class="card">
        <h2>Add an item</h2>
        <FormErrors form={v.itemForm} fields={['label', 'type', 'target', 'parent']} />
        <div class="form-row">
          <Field form={v.itemForm} name="label" label="Label" required />
          <Select form={v.itemForm} name="type" label="Links to" options={MENU_LINK_TYPES.map((t): [string, string] => [t, TYPE_LABELS[t]])} />
          <Field form={v.itemForm} name="target" label="Target" hint="A URL (https://…) or path (/sale); for a page, category or product its id or slug." />
          <Select form={v.itemForm} name="parent" label="Put under" options={choices} blank="Top level" />
        </div>
        <button type="submit">Add item</button>
      </PostForm>
      <PostForm action={`${HERE}/${m.id}`} csrf={v.csrf} class="card">
        <h2>Menu</h2>
        <FormErrors form={v.form} fields={['name', 'handle']} />
        <div class="form-row">
          <Field form={v.form} name="name" label="Name" required />
          <Field form={v.form} name="handle" label="Handle" required />
        </div>
        <button type="submit">Save menu</button>
      </PostForm>
      <div class="actions">
        <ActionButton action={`${HERE}/${m.id}/delete`} csrf={v.csrf} label="Delete menu" danger confirm={`Delete the menu “${m.name}”? The storefront will no longer find it.`} />
      </div>
    </>
  );
}
