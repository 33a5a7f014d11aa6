import { NOTIFICATION_STATUSES } from '../../db/schema';
import { NOTIFICATION_CATEGORIES, NOTIFICATION_CHANNELS, TEMPLATE_AUDIENCES } from '../../db/schema/notifications';
import type { Pagination } from '../../lib/envelope';
import type { Notification, NotificationTemplate } from '../../modules/notifications/schemas';
import { ActionButton, Field, FormErrors, type FormState, PostForm, Select } from '../components/form';
import { ACTIVE_OPTIONS, Badge, Filters, Pager, Table, when } from '../components/table';

const BASE = '/admin/notifications';

/** Links between the two halves of the area: the templates and the messages made from them. */
function AreaLinks({ here }: { here: 'templates' | 'log' }) {
  return (
    <nav class="actions" aria-label="Notifications">
      {here === 'templates' ? <strong>Templates</strong> : <a href={BASE}>Templates</a>}
      <span aria-hidden="true">·</span>
      {here === 'log' ? <strong>Message log</strong> : <a href={`${BASE}/log`}>Message log</a>}
    </nav>
  );
}

export function TemplateListPage(v: { templates: NotificationTemplate[]; page: Pagination; url: string; filters: FormState; events: string[] }) {
  return (
    <>
      <AreaLinks here="templates" />
      <Filters action={BASE}>
        <Select form={v.filters} name="event" label="Event" options={v.events} blank="Any" />
        <Select form={v.filters} name="channel" label="Channel" options={NOTIFICATION_CHANNELS} blank="Any" />
        <Select form={v.filters} name="audience" label="Audience" options={TEMPLATE_AUDIENCES} blank="Any" />
        <Select form={v.filters} name="active" label="Active" options={ACTIVE_OPTIONS} blank="Any" />
      </Filters>
      <Table caption="Notification templates" head={['Template', 'Event', 'Channel', 'Audience', 'Active', 'Changed']} count={v.templates.length} empty="No templates match.">
        {v.templates.map((t) => (
          <tr>
            <td>
              <a href={`${BASE}/${t.id}`}>
                <code>{t.key}</code>
              </a>
              {t.description ? <div class="muted">{t.description}</div> : null}
            </td>
            <td>
              <code>{t.event}</code>
            </td>
            <td>{t.channel}</td>
            <td>{t.audience}</td>
            <td>
              <Badge value={t.active ? 'active' : 'inactive'} />
            </td>
            <td>{when(t.updatedAt)}</td>
          </tr>
        ))}
      </Table>
      <Pager page={v.page} url={v.url} />
    </>
  );
}

/** A labelled textarea sized for a message body (the shared Field's is four rows), its error tied to it. */
function TextArea(props: { form: FormState; name: string; label: string; rows: number; hint?: string; required?: boolean }) {
  const id = `f-${props.name}`;
  const error = props.form.errors[props.name];
  const value = props.form.values[props.name];
  const described = [props.hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class={`field${error ? ' invalid' : ''}`}>
      <label for={id}>
        {props.label}
        {props.required ? <span aria-hidden="true"> *</span> : null}
      </label>
      <textarea id={id} name={props.name} rows={props.rows} aria-invalid={error ? 'true' : undefined} aria-describedby={described}>
        {value === null || value === undefined ? '' : String(value)}
      </textarea>
      {props.hint ? <small id={`${id}-hint`}>{props.hint}</small> : null}
      {error ? (
        <p class="error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Text with its line breaks kept, without needing a stylesheet rule. */
export function Lines({ text }: { text: string }) {
  const lines = text.split('\n');
  return (
    <>
      {lines.map((line, i) => (
        <>
          {line}
          {i < lines.length - 1 ? <br /> : null}
        </>
      ))}
    </>
  );
}

/**
 * An HTML email as the recipient would see it: in a sandboxed frame (no scripts, no forms, its own
 * origin), so nothing in it can reach the panel. Its source is one click away.
 */
function HtmlPart({ html, title }: { html: string; title: string }) {
  return (
    <>
      <iframe sandbox="" srcdoc={html} title={title} class="html-preview" width="100%" height="360" />
      <details>
        <summary>HTML source</summary>
        <pre>
          <code>{html}</code>
        </pre>
      </details>
    </>
  );
}

export interface Rendered {
  subject: string | null;
  body: string;
  bodyHtml: string | null;
}

export const TEMPLATE_FIELDS = ['subject', 'body', 'bodyHtml', 'active'];

export interface TemplateEditView {
  template: NotificationTemplate;
  /** Each variable the template may use, with what it holds (its trigger's list). */
  variables: [string, string][];
  form: FormState;
  preview?: Rendered;
  csrf: string;
  canWrite: boolean;
  /** A template whose messages carry a credential (password reset, cart reminder): only a user holding `*` may save or reset it (the API's rule, checked by its service). */
  needsEverything: boolean;
  mayChangeIt: boolean;
}

export function TemplateEditPage(v: TemplateEditView) {
  const t = v.template;
  const email = t.channel === 'email';
  const action = `${BASE}/${t.id}`;
  return (
    <>
      <div class="actions">
        <a href={BASE}>← All templates</a>
        <Badge value={t.active ? 'active' : 'inactive'} />
        <span class="muted">
          Sent on <code>{t.event}</code> by {t.channel} to the {t.audience === 'admin' ? 'store staff' : 'customer'} ({t.category})
        </span>
      </div>
      {t.description ? <p class="muted">{t.description}</p> : null}
      {v.needsEverything ? (
        <div class={`flash ${v.mayChangeIt ? 'ok' : 'error'}`} role="note">
          <p>
            The messages of this template carry a credential (a link that opens an account or a customer's cart), so changing it needs every permission (<code>*</code>)
            {v.mayChangeIt ? '.' : ': this account can preview it but not save it.'}
          </p>
        </div>
      ) : null}
      <div class="two">
        {v.canWrite ? (
          <PostForm action={action} csrf={v.csrf} class="card">
            <h2>Texts</h2>
            <FormErrors form={v.form} fields={TEMPLATE_FIELDS} />
            {email ? <Field form={v.form} name="subject" label="Subject" required /> : null}
            <TextArea form={v.form} name="body" label={email ? 'Body (plain text)' : 'Text'} rows={12} required hint={email ? undefined : 'At most 1600 characters.'} />
            {email ? <TextArea form={v.form} name="bodyHtml" label="HTML body" rows={12} hint="Blank: a text-only email. Values are HTML-escaped in it." /> : null}
            <label class="check">
              <input type="checkbox" name="active" checked={v.form.values.active === true || v.form.values.active === 'on'} /> Active (an inactive template sends nothing)
            </label>
            <div class="actions">
              <button type="submit">Save template</button>
              <button type="submit" class="secondary" formaction={`${action}/preview`}>
                Preview with sample data
              </button>
            </div>
          </PostForm>
        ) : (
          <section class="card" aria-labelledby="texts">
            <h2 id="texts">Texts</h2>
            <MessageParts message={t} />
          </section>
        )}
        <aside class="card" aria-labelledby="variables">
          <h2 id="variables">Variables</h2>
          <p class="muted">
            Write <code>{'{{name}}'}</code>; any other name is refused when saving.
          </p>
          <dl class="facts">
            {v.variables.map(([name, description]) => (
              <>
                <dt>
                  <code>{`{{${name}}}`}</code>
                </dt>
                <dd>{description || '—'}</dd>
              </>
            ))}
          </dl>
        </aside>
      </div>
      {v.preview ? (
        <section class="card" aria-labelledby="preview" id="preview-result">
          <h2 id="preview">Preview with sample data</h2>
          <p class="muted">The texts above, not saved, rendered as a message would be.</p>
          <MessageParts message={v.preview} />
        </section>
      ) : null}
      {v.canWrite && (v.mayChangeIt || !v.needsEverything) ? (
        <div class="actions">
          <ActionButton
            action={`${action}/reset`}
            csrf={v.csrf}
            label="Reset to default"
            danger
            confirm="Put this template back to the texts the store started with (and switch it on)?"
          />
        </div>
      ) : null}
    </>
  );
}

/** Subject, text and HTML of a template or a message. */
function MessageParts({ message }: { message: Rendered }) {
  return (
    <>
      {message.subject !== null ? (
        <>
          <h3>Subject</h3>
          <p class="subject">{message.subject}</p>
        </>
      ) : null}
      <h3>{message.bodyHtml !== null || message.subject !== null ? 'Text' : 'SMS'}</h3>
      <p class="body">
        <Lines text={message.body} />
      </p>
      {message.bodyHtml !== null ? (
        <>
          <h3>HTML</h3>
          <HtmlPart html={message.bodyHtml} title="The HTML part" />
        </>
      ) : null}
    </>
  );
}

export function MessageLogPage(v: { messages: Notification[]; page: Pagination; url: string; filters: FormState; templates: string[] }) {
  return (
    <>
      <AreaLinks here="log" />
      <Filters action={`${BASE}/log`} exportTo="notifications">
        <Select form={v.filters} name="channel" label="Channel" options={NOTIFICATION_CHANNELS} blank="Any" />
        <Select form={v.filters} name="status" label="Status" options={NOTIFICATION_STATUSES} blank="Any" />
        <Field form={v.filters} name="recipient" label="Recipient" hint="The exact address or number." />
        <Select form={v.filters} name="template" label="Template" options={v.templates} blank="Any" />
        <Select form={v.filters} name="category" label="Category" options={NOTIFICATION_CATEGORIES} blank="Any" />
      </Filters>
      <Table caption="Messages" head={['Created', 'Template', 'Channel', 'Recipient', 'Subject', 'Status', 'Attempts']} count={v.messages.length} empty="No messages match.">
        {v.messages.map((m) => (
          <tr>
            <td>
              <a href={`${BASE}/log/${m.id}`}>{when(m.createdAt)}</a>
            </td>
            <td>
              <code>{m.template}</code>
            </td>
            <td>{m.channel}</td>
            <td>{m.recipient}</td>
            <td>{m.subject ?? <span class="muted">{m.body.slice(0, 60)}</span>}</td>
            <td>
              <Badge value={m.status} />
            </td>
            <td class="num">{m.attempts}</td>
          </tr>
        ))}
      </Table>
      <Pager page={v.page} url={v.url} />
    </>
  );
}

export function MessagePage(v: { message: Notification; templateId: string | null }) {
  const m = v.message;
  return (
    <>
      <div class="actions">
        <a href={`${BASE}/log`}>← Message log</a>
        <Badge value={m.status} />
      </div>
      {m.status === 'failed' || m.lastError ? (
        <div class={`flash ${m.status === 'failed' ? 'error' : 'ok'}`} role={m.status === 'failed' ? 'alert' : 'status'} id="delivery-error">
          <p>
            <strong>{m.status === 'failed' ? 'Not sent' : 'Last attempt failed'}</strong> after {m.attempts} attempt{m.attempts === 1 ? '' : 's'}
            {m.lastAttemptAt ? <> (last {when(m.lastAttemptAt)})</> : null}: {m.lastError ?? 'no error recorded'}
          </p>
        </div>
      ) : null}
      <div class="two">
        <section class="card" aria-labelledby="message">
          <h2 id="message">Message</h2>
          <MessageParts message={m} />
        </section>
        <section class="card" aria-labelledby="delivery">
          <h2 id="delivery">Delivery</h2>
          <dl class="facts">
            <dt>To</dt>
            <dd>{m.recipient}</dd>
            <dt>Channel</dt>
            <dd>{m.channel}</dd>
            <dt>Template</dt>
            <dd>{v.templateId ? <a href={`${BASE}/${v.templateId}`}>{m.template}</a> : <code>{m.template}</code>}</dd>
            <dt>Category</dt>
            <dd>{m.category}</dd>
            <dt>Status</dt>
            <dd>
              <Badge value={m.status} />
            </dd>
            <dt>Attempts</dt>
            <dd>{m.attempts}</dd>
            <dt>Last error</dt>
            <dd>{m.lastError ?? '—'}</dd>
            <dt>Provider</dt>
            <dd>{m.provider ?? '—'}</dd>
            <dt>Provider's id</dt>
            <dd>{m.providerMessageId ? <code>{m.providerMessageId}</code> : '—'}</dd>
            <dt>Created</dt>
            <dd>{when(m.createdAt)}</dd>
            <dt>Last attempt</dt>
            <dd>{when(m.lastAttemptAt)}</dd>
            <dt>Sent</dt>
            <dd>{when(m.sentAt)}</dd>
            <dt>Event</dt>
            <dd>{m.eventId ? <code>{m.eventId}</code> : 'an internal trigger'}</dd>
          </dl>
          <details>
            <summary>Data it was rendered with</summary>
            <pre>
              <code>{JSON.stringify(m.data, null, 2)}</code>
            </pre>
          </details>
        </section>
      </div>
    </>
  );
}
