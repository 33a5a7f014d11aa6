import type { TaxClass } from '../../modules/settings/schemas';
import { BUILT_IN_TAX_CLASSES } from '../../modules/settings/schemas';
import { ActionButton, Field, FormErrors, type FormState, PostForm } from '../components/form';
import { Badge, Table } from '../components/table';

const HERE = '/admin/settings/tax-classes';
const isBuiltIn = (code: string) => (BUILT_IN_TAX_CLASSES as readonly string[]).includes(code);

function DeleteButton({ taxClass, csrf }: { taxClass: TaxClass; csrf: string }) {
  return <ActionButton action={`${HERE}/${taxClass.code}/delete`} csrf={csrf} label="Delete" danger confirm={`Delete the tax class "${taxClass.name}" and its tax rates?`} />;
}

export function TaxClassesPage(v: { classes: TaxClass[]; form: FormState; csrf: string; canWrite: boolean }) {
  return (
    <>
      <div class="actions">
        <a href="/admin/settings#taxes">← Settings</a>
      </div>
      <p class="muted">
        A product is taxed at the rates of its class. A class with no rate for a place pays the standard class's rate there; the zero class is never taxed. Standard and zero always
        exist; a class products use cannot be deleted, and deleting a class deletes its tax rates.
      </p>
      <Table caption="Tax classes" head={['Code', 'Name', '']} count={v.classes.length}>
        {v.classes.map((t) => (
          <tr>
            <td>
              <code>{t.code}</code> {isBuiltIn(t.code) ? <Badge value="built_in" /> : null}
            </td>
            <td>{t.name}</td>
            <td>
              {v.canWrite ? (
                <div class="actions">
                  <a href={`${HERE}/${t.code}`}>Rename</a>
                  {isBuiltIn(t.code) ? null : <DeleteButton taxClass={t} csrf={v.csrf} />}
                </div>
              ) : null}
            </td>
          </tr>
        ))}
      </Table>
      {v.canWrite ? (
        <PostForm action={HERE} csrf={v.csrf} class="card">
          <h3>Add a tax class</h3>
          <FormErrors form={v.form} fields={['code', 'name']} />
          <div class="form-row">
            <Field form={v.form} name="code" label="Code" required placeholder="books" hint="Lower-case letters, digits and dashes; it cannot change." />
            <Field form={v.form} name="name" label="Name" required placeholder="Books" />
          </div>
          <button type="submit">Add tax class</button>
        </PostForm>
      ) : null}
    </>
  );
}

export function TaxClassEditPage(v: { taxClass: TaxClass; form: FormState; csrf: string }) {
  const t = v.taxClass;
  return (
    <>
      <div class="actions">
        <a href={HERE}>← Tax classes</a>
      </div>
      <PostForm action={`${HERE}/${t.code}`} csrf={v.csrf} class="card">
        <h2>
          Tax class <code>{t.code}</code>
        </h2>
        <FormErrors form={v.form} fields={['name']} />
        <Field form={v.form} name="name" label="Name" required />
        <button type="submit">Save tax class</button>
      </PostForm>
      {isBuiltIn(t.code) ? null : <DeleteButton taxClass={t} csrf={v.csrf} />}
    </>
  );
}
