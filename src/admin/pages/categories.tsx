import type { Category } from '../../modules/categories/schemas';
import { ActionButton, Field, FormErrors, type FormState, PostForm, Select } from '../components/form';
import { Table } from '../components/table';

/** A category in the tree: how deep, whether first or last among its siblings, how many children. */
export interface TreeRow {
  category: Category;
  depth: number;
  first: boolean;
  last: boolean;
  children: number;
}

const HERE = '/admin/categories';
export const CATEGORY_FIELDS = ['name', 'slug', 'parentId', 'position', 'description'];

/** Indentation as text (the panel's CSP allows no inline styles): one step per level. */
const indent = (depth: number) => (depth ? `${'\u00a0\u00a0\u00a0\u00a0'.repeat(depth - 1)}└\u00a0` : '');

/** The tree as a select's options, indented; `except` is left out (the category being edited). */
const parentOptions = (tree: TreeRow[], except?: string): [string, string][] =>
  tree.filter((r) => r.category.id !== except).map((r) => [r.category.id, `${indent(r.depth)}${r.category.name}`]);

export function CategoryTreePage(v: { tree: TreeRow[]; form: FormState; csrf: string }) {
  return (
    <>
      <p class="muted">Sub-categories are shown under their parent, in sort order. Use ↑ and ↓ to reorder a category among its siblings.</p>
      <Table caption="Categories" head={['Name', 'Slug', 'Order', 'Sub-categories', '']} count={v.tree.length} empty="No categories yet.">
        {v.tree.map((r) => (
          <tr data-category={r.category.slug}>
            <td>
              <span class="muted" aria-hidden="true">
                {indent(r.depth)}
              </span>
              {r.depth ? <span class="sr-only">Level {r.depth + 1}: </span> : null}
              <a href={`${HERE}/${r.category.id}`}>{r.category.name}</a>
            </td>
            <td>
              <code>{r.category.slug}</code>
            </td>
            <td>
              <span class="num">{r.category.position}</span> {r.first ? null : <MoveButton category={r.category} csrf={v.csrf} direction="up" />}{' '}
              {r.last ? null : <MoveButton category={r.category} csrf={v.csrf} direction="down" />}
            </td>
            <td class="num">{r.children}</td>
            <td>
              <div class="actions">
                <a href={`${HERE}/${r.category.id}`}>Edit</a>
                <ActionButton
                  action={`${HERE}/${r.category.id}/delete`}
                  csrf={v.csrf}
                  label="Delete"
                  danger
                  confirm={`Delete the category “${r.category.name}”? Its products simply leave it.`}
                />
              </div>
            </td>
          </tr>
        ))}
      </Table>
      <PostForm action={HERE} csrf={v.csrf} class="card">
        <h2>New category</h2>
        <CategoryFields form={v.form} parents={parentOptions(v.tree)} />
        <button type="submit">Create category</button>
      </PostForm>
    </>
  );
}

/** ↑ or ↓, named for screen readers and on hover (“Move Lamps up”). */
function MoveButton({ category, csrf, direction }: { category: Category; csrf: string; direction: 'up' | 'down' }) {
  const name = `Move ${category.name} ${direction}`;
  return (
    <PostForm action={`${HERE}/${category.id}/move`} csrf={csrf} class="inline">
      <input type="hidden" name="direction" value={direction} />
      <button type="submit" class="secondary" aria-label={name} title={name}>
        {direction === 'up' ? '↑' : '↓'}
      </button>
    </PostForm>
  );
}

function CategoryFields({ form, parents }: { form: FormState; parents: [string, string][] }) {
  return (
    <>
      <FormErrors form={form} fields={CATEGORY_FIELDS} />
      <div class="form-row">
        <Field form={form} name="name" label="Name" required />
        <Field form={form} name="slug" label="Slug" hint="Left blank, it is made from the name." />
        <Select form={form} name="parentId" label="Parent" options={parents} blank="None (top level)" />
        <Field form={form} name="position" label="Sort order" type="number" min="0" hint="Lower comes first among its siblings." />
      </div>
      <Field form={form} name="description" label="Description" type="textarea" />
    </>
  );
}

export function CategoryEditPage(v: { category: Category; tree: TreeRow[]; form: FormState; csrf: string }) {
  const c = v.category;
  return (
    <>
      <div class="actions">
        <a href={HERE}>← All categories</a>
      </div>
      <PostForm action={`${HERE}/${c.id}`} csrf={v.csrf} class="card">
        <CategoryFields form={v.form} parents={parentOptions(v.tree, c.id)} />
        <button type="submit">Save category</button>
      </PostForm>
      <ActionButton action={`${HERE}/${c.id}/delete`} csrf={v.csrf} label="Delete category" danger confirm={`Delete the category “${c.name}”? Its products simply leave it.`} />
    </>
  );
}
