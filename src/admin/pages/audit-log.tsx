import type { Pagination } from '../../lib/envelope';
import { AUDIT_ACTIONS, AUDIT_ACTOR_KINDS, type AuditEntry } from '../../modules/audit-log/schemas';
import { Field, type FormState, Select } from '../components/form';
import { Badge, Filters, Pager, Table, when } from '../components/table';

const BASE = '/admin/audit-log';

const actorName = (e: AuditEntry) => e.actor.label ?? e.actor.id;

export function AuditLogPage(v: { entries: AuditEntry[]; page: Pagination; url: string; filters: FormState; resources: string[] }) {
  return (
    <>
      <p class="muted">Every row created, changed or deleted by a staff user, a vendor user or an API key, newest first. Nobody can change or delete an entry.</p>
      <Filters action={BASE} exportTo="audit-log">
        <Field form={v.filters} name="actor" label="Actor" hint="User id or email, key id or prefix." />
        <Select
          form={v.filters}
          name="actor_kind"
          label="Actor kind"
          options={AUDIT_ACTOR_KINDS.map((k): [string, string] => [k, k === 'api_key' ? 'API key' : 'user'])}
          blank="Any"
        />
        <Select form={v.filters} name="resource" label="Resource" options={v.resources} blank="Any" />
        <Field form={v.filters} name="resource_id" label="Resource id" />
        <Select form={v.filters} name="action" label="Action" options={AUDIT_ACTIONS} blank="Any" />
        <Field form={v.filters} name="created_after" label="From (UTC)" type="date" />
        <Field form={v.filters} name="created_before" label="Before (UTC)" type="date" hint="That day excluded." />
        {v.filters.values.request_id ? <input type="hidden" name="request_id" value={String(v.filters.values.request_id)} /> : null}
      </Filters>
      {v.filters.values.request_id ? (
        <p class="muted">
          Only the entries of request <code>{String(v.filters.values.request_id)}</code>.
        </p>
      ) : null}
      <Table caption="Audit log" head={['#', 'When', 'Actor', 'Action', 'Resource', 'Fields', 'Request']} count={v.entries.length} empty="No entries match.">
        {v.entries.map((e) => {
          const fields = Object.keys(e.changes);
          return (
            <tr>
              <td class="num">
                <a href={`${BASE}/${e.id}`} aria-label={`Entry ${e.id}`}>
                  {e.id}
                </a>
              </td>
              <td>{when(e.createdAt)}</td>
              <td>
                {actorName(e)}
                <div class="muted">
                  {e.actor.kind === 'api_key' ? 'API key' : 'user'}
                  {e.actor.role ? `, ${e.actor.role}` : ''}
                </div>
              </td>
              <td>
                <Badge value={e.action} />
              </td>
              <td>
                {e.resource}
                <div class="muted">
                  <code>{e.resourceId}</code>
                </div>
              </td>
              <td>
                {fields.slice(0, 6).join(', ')}
                {fields.length > 6 ? ` and ${fields.length - 6} more` : ''}
              </td>
              <td>{e.method && e.path ? <RequestPath method={e.method} path={e.path} /> : '—'}</td>
            </tr>
          );
        })}
      </Table>
      <Pager page={v.page} url={v.url} />
    </>
  );
}

/** `POST /admin/...` with break opportunities after each slash, so a long path wraps in its column. */
function RequestPath({ method, path }: { method: string; path: string }) {
  const parts = path.split('/');
  return (
    <code>
      {method}{' '}
      {parts.map((part, i) => (
        <>
          {part}
          {i < parts.length - 1 ? (
            <>
              /<wbr />
            </>
          ) : null}
        </>
      ))}
    </code>
  );
}

type Change = AuditEntry['changes'][string];

/** Has the field's value changed? Compared as JSON (values as stored: text, numbers, booleans, lists, objects). */
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The fields of an entry in the order to read them: the changed ones first (an update's whose
 * value differs), then the rest (a create's or a delete's values, or an update's unchanged ones).
 */
export function orderedChanges(entry: AuditEntry): { field: string; change: Change; changed: boolean }[] {
  const rows = Object.entries(entry.changes).map(([field, change]) => ({
    field,
    change,
    changed: entry.action === 'update' ? 'before' in change && 'after' in change && !same(change.before, change.after) : false,
  }));
  return [...rows.filter((r) => r.changed), ...rows.filter((r) => !r.changed)];
}

/** A stored value, readably: text with its line breaks, anything else as JSON. */
function Value({ value, present }: { value: unknown; present: boolean }) {
  if (!present) return <span class="muted">—</span>;
  if (value === null) return <span class="muted">null</span>;
  if (typeof value === 'string') {
    const lines = value.split('\n');
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
  return <code>{JSON.stringify(value)}</code>;
}

export function AuditEntryPage(v: { entry: AuditEntry; resourceHref: string | null }) {
  const e = v.entry;
  const rows = orderedChanges(e);
  const changedCount = rows.filter((r) => r.changed).length;
  const history = `${BASE}?${new URLSearchParams({ resource: e.resource, resource_id: e.resourceId })}`;
  return (
    <>
      <div class="actions">
        <a href={BASE}>← Audit log</a>
        <Badge value={e.action} />
        <a href={history}>History of this {e.resource.replace(/_/g, ' ')}</a>
        {e.requestId ? <a href={`${BASE}?${new URLSearchParams({ request_id: e.requestId })}`}>Everything this request wrote</a> : null}
        {v.resourceHref && e.action !== 'delete' ? <a href={v.resourceHref}>Open the {e.resource.replace(/_/g, ' ')}</a> : null}
      </div>
      <section class="card" aria-labelledby="who">
        <h2 id="who">Who, what, when</h2>
        <dl class="facts">
          <dt>Actor</dt>
          <dd>
            {actorName(e)} ({e.actor.kind === 'api_key' ? 'API key' : 'user'}
            {e.actor.role ? `, role ${e.actor.role}` : ''}) <code>{e.actor.id}</code>
          </dd>
          <dt>Action</dt>
          <dd>{e.action}</dd>
          <dt>Resource</dt>
          <dd>
            {e.resource} <code>{e.resourceId}</code>
          </dd>
          <dt>When</dt>
          <dd>{when(e.createdAt)} UTC</dd>
          <dt>Request</dt>
          <dd>
            {e.method && e.path ? <code>{`${e.method} ${e.path}`}</code> : '—'}
            {e.requestId ? (
              <>
                {' '}
                id <code>{e.requestId}</code>
              </>
            ) : null}
          </dd>
        </dl>
      </section>
      <h2>{e.action === 'update' ? `Changed fields (${changedCount})` : e.action === 'create' ? 'Fields as created' : 'Fields as they were when deleted'}</h2>
      <p class="muted">Values as stored (amounts in minor units); secrets show as [redacted].</p>
      <Table caption="Changes, before and after" head={['Field', 'Before', 'After']} count={rows.length} empty="No field changed.">
        {rows.map(({ field, change, changed }) => (
          <tr class={changed ? 'changed' : undefined}>
            <td class="field-name">
              {changed ? (
                <mark>
                  <code>{field}</code>
                </mark>
              ) : (
                <code>{field}</code>
              )}
            </td>
            <td class="before">
              {changed ? (
                <del>
                  <Value value={change.before} present={'before' in change} />
                </del>
              ) : (
                <Value value={change.before} present={'before' in change} />
              )}
            </td>
            <td class="after">
              {changed ? (
                <ins>
                  <Value value={change.after} present={'after' in change} />
                </ins>
              ) : (
                <Value value={change.after} present={'after' in change} />
              )}
            </td>
          </tr>
        ))}
      </Table>
    </>
  );
}
