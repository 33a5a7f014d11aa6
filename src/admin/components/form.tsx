import type { Child } from 'hono/jsx';
import { CSRF_FIELD } from '../csrf';

/** Field name -> message, from the `details` of a VALIDATION_ERROR or a CONFLICT. */
export type FieldErrors = Record<string, string>;

export interface FormState {
  values: Record<string, unknown>;
  errors: FieldErrors;
  /** A problem that belongs to no one field. */
  message?: string;
}

export const emptyForm = (values: Record<string, unknown> = {}): FormState => ({ values, errors: {} });

export function CsrfField({ token }: { token: string }) {
  return <input type="hidden" name={CSRF_FIELD} value={token} />;
}

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

interface FieldProps {
  form: FormState;
  name: string;
  label: string;
  type?: string;
  required?: boolean;
  hint?: string;
  step?: string;
  min?: string;
  placeholder?: string;
  autocomplete?: string;
}

/** A labelled input with its error right under it, tied together for screen readers. */
export function Field(props: FieldProps) {
  const id = `f-${props.name.replace(/[^\w-]/g, '-')}`;
  const error = props.form.errors[props.name];
  const described = [props.hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class={`field${error ? ' invalid' : ''}`}>
      <label for={id}>
        {props.label}
        {props.required ? <span aria-hidden="true"> *</span> : null}
      </label>
      {props.type === 'textarea' ? (
        <textarea id={id} name={props.name} rows={4} aria-invalid={error ? 'true' : undefined} aria-describedby={described}>
          {text(props.form.values[props.name])}
        </textarea>
      ) : (
        <input
          id={id}
          name={props.name}
          type={props.type ?? 'text'}
          value={text(props.form.values[props.name])}
          required={props.required}
          step={props.step}
          min={props.min}
          placeholder={props.placeholder}
          autocomplete={props.autocomplete}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={described}
        />
      )}
      {props.hint ? <small id={`${id}-hint`}>{props.hint}</small> : null}
      {error ? (
        <p class="error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function Select(props: {
  form: FormState;
  name: string;
  label: string;
  options: readonly (string | [string, string])[];
  blank?: string;
  required?: boolean;
  hint?: string;
}) {
  const id = `f-${props.name}`;
  const error = props.form.errors[props.name];
  const current = text(props.form.values[props.name]);
  const described = [props.hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class={`field${error ? ' invalid' : ''}`}>
      <label for={id}>{props.label}</label>
      <select id={id} name={props.name} required={props.required} aria-invalid={error ? 'true' : undefined} aria-describedby={described}>
        {props.blank !== undefined ? <option value="">{props.blank}</option> : null}
        {props.options.map((option) => {
          const [value, label] = typeof option === 'string' ? [option, option] : option;
          return (
            <option value={value} selected={value === current}>
              {label}
            </option>
          );
        })}
      </select>
      {props.hint ? <small id={`${id}-hint`}>{props.hint}</small> : null}
      {error ? (
        <p class="error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Checkboxes sharing one name (a set such as categories or webhook events). */
export function Checkboxes(props: { form: FormState; name: string; legend: string; options: readonly [string, string][] }) {
  const error = props.form.errors[props.name];
  const chosen = new Set((props.form.values[props.name] as string[] | undefined) ?? []);
  return (
    <fieldset class={`field checks${error ? ' invalid' : ''}`}>
      <legend>{props.legend}</legend>
      {props.options.map(([value, label]) => (
        <label class="check">
          <input type="checkbox" name={props.name} value={value} checked={chosen.has(value)} /> {label}
        </label>
      ))}
      {error ? <p class="error">{error}</p> : null}
    </fieldset>
  );
}

/** The form's own problems: the message, and any field errors that have no field on this form. */
export function FormErrors({ form, fields }: { form: FormState; fields?: string[] }) {
  const orphans = fields ? Object.entries(form.errors).filter(([name]) => !fields.includes(name)) : [];
  if (!form.message && orphans.length === 0 && Object.keys(form.errors).length === 0) return null;
  return (
    <div class="flash error" role="alert">
      <p>{form.message ?? 'Please correct the fields marked below.'}</p>
      {orphans.length ? (
        <ul>
          {orphans.map(([name, message]) => (
            <li>
              {name}: {message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** A POST form with its CSRF token. `confirm` asks before submitting (destructive actions). */
export function PostForm(props: { action: string; csrf: string; confirm?: string; class?: string; enctype?: 'multipart/form-data'; children: Child }) {
  return (
    <form method="post" action={props.action} class={props.class} data-confirm={props.confirm} enctype={props.enctype}>
      <CsrfField token={props.csrf} />
      {props.children}
    </form>
  );
}

/** A one-button form, for actions such as revoke, archive or redeliver. */
export function ActionButton(props: { action: string; csrf: string; label: string; confirm?: string; danger?: boolean; fields?: Record<string, string> }) {
  return (
    <PostForm action={props.action} csrf={props.csrf} confirm={props.confirm} class="inline">
      {Object.entries(props.fields ?? {}).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <button type="submit" class={props.danger ? 'danger' : 'secondary'}>
        {props.label}
      </button>
    </PostForm>
  );
}
