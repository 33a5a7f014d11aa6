import type { Pagination } from '../../lib/envelope';
import { EVENT_TYPES } from '../../modules/registry';
import type { Delivery, Replay, WebhookEndpoint } from '../../modules/webhooks/schemas';
import { ActionButton, Checkboxes, Field, FormErrors, type FormState, PostForm } from '../components/form';
import { SecretOnce } from '../components/secret';
import { Badge, Pager, Table, when } from '../components/table';

const EVENT_OPTIONS: [string, string][] = [['*', 'Every event'], ...EVENT_TYPES.map((e): [string, string] => [e, e])];

const endpointState = (w: WebhookEndpoint) => (w.disabledAt ? 'disabled' : !w.active ? 'inactive' : w.failingSince ? 'failed' : 'active');

export function WebhookListPage(v: {
  endpoints: WebhookEndpoint[];
  page: Pagination;
  url: string;
  form: FormState;
  csrf: string;
  canWrite: boolean;
  created?: { endpoint: WebhookEndpoint; secret: string };
}) {
  return (
    <>
      {v.created ? (
        <SecretOnce title={`Signing secret of ${v.created.endpoint.url}`} value={v.created.secret} id="webhook-secret" note="Receivers check X-Store-Signature with it." />
      ) : null}
      <Table caption="Webhook endpoints" head={['URL', 'Events', 'State', 'Failing since', 'Created']} count={v.endpoints.length} empty="No webhook endpoints yet.">
        {v.endpoints.map((w) => (
          <tr>
            <td>
              <a href={`/admin/webhooks/${w.id}`}>{w.url}</a>
              {w.description ? <div class="muted">{w.description}</div> : null}
            </td>
            <td>{w.events.join(', ')}</td>
            <td>
              <Badge value={endpointState(w)} />
            </td>
            <td>{when(w.failingSince)}</td>
            <td>{when(w.createdAt)}</td>
          </tr>
        ))}
      </Table>
      <Pager page={v.page} url={v.url} />
      {v.canWrite ? (
        <section class="card" aria-labelledby="new-hook">
          <h2 id="new-hook">Add an endpoint</h2>
          <PostForm action="/admin/webhooks" csrf={v.csrf}>
            <FormErrors form={v.form} fields={['url', 'events', 'description']} />
            <Field form={v.form} name="url" label="URL" type="url" required hint="https and public; the store POSTs signed events here." />
            <Field form={v.form} name="description" label="Description" />
            <Checkboxes form={v.form} name="events" legend="Events" options={EVENT_OPTIONS} />
            <button type="submit">Add endpoint</button>
          </PostForm>
        </section>
      ) : null}
    </>
  );
}

export function WebhookDetailPage(v: {
  endpoint: WebhookEndpoint;
  deliveries: Delivery[];
  replays: Replay[];
  replay: FormState;
  page: Pagination;
  url: string;
  csrf: string;
  canWrite: boolean;
  secret?: string;
  form: FormState;
  edit: FormState;
}) {
  const w = v.endpoint;
  const base = `/admin/webhooks/${w.id}`;
  return (
    <>
      <div class="actions">
        <a href="/admin/webhooks">← All endpoints</a>
        <Badge value={endpointState(w)} />
      </div>
      {v.secret ? <SecretOnce title="New signing secret" value={v.secret} id="webhook-secret" note="The old secret keeps signing until the overlap ends." /> : null}
      <section class="card">
        <dl class="facts">
          <dt>URL</dt>
          <dd>{w.url}</dd>
          <dt>Events</dt>
          <dd>{w.events.join(', ')}</dd>
          <dt>Description</dt>
          <dd>{w.description ?? '—'}</dd>
          <dt>Failing since</dt>
          <dd>{when(w.failingSince)}</dd>
          <dt>Disabled</dt>
          <dd>{w.disabledAt ? `${w.disabledAt.slice(0, 16)} — ${w.disabledReason ?? ''}` : '—'}</dd>
          <dt>Old secret signs until</dt>
          <dd>{when(w.secretRotation?.previousSecretExpiresAt ?? null)}</dd>
        </dl>
        {v.canWrite ? (
          <div class="actions">
            <ActionButton action={`${base}/test`} csrf={v.csrf} label="Send a test ping" />
            <ActionButton
              action={`${base}/active`}
              csrf={v.csrf}
              label={w.active ? 'Disable' : 'Enable'}
              fields={{ active: w.active ? 'false' : 'true' }}
              confirm={w.active ? 'Stop sending events to this endpoint?' : undefined}
            />
            <PostForm action={`${base}/rotate`} csrf={v.csrf} class="inline" confirm="Rotate the signing secret? Update your receiver before the overlap ends.">
              <label for="overlap">Overlap (hours)</label>{' '}
              <input id="overlap" name="overlapHours" type="number" min="0" max="168" value={String(v.form.values.overlapHours ?? 24)} />
              {v.form.errors.overlapHours ? <span class="error">{v.form.errors.overlapHours}</span> : null}
              <button type="submit" class="secondary">
                Rotate secret
              </button>
            </PostForm>
            <ActionButton action={`${base}/delete`} csrf={v.csrf} label="Delete endpoint" danger confirm="Delete this endpoint and its delivery history?" />
          </div>
        ) : null}
      </section>
      {v.canWrite ? (
        <section class="card" aria-labelledby="edit-hook">
          <h2 id="edit-hook">Edit endpoint</h2>
          <PostForm action={`${base}/edit`} csrf={v.csrf}>
            <FormErrors form={v.edit} fields={['url', 'events', 'description']} />
            <Field form={v.edit} name="url" label="URL" type="url" required hint="https and public; the store POSTs signed events here." />
            <Field form={v.edit} name="description" label="Description" />
            <Checkboxes form={v.edit} name="events" legend="Events" options={EVENT_OPTIONS} />
            <button type="submit">Save endpoint</button>
          </PostForm>
        </section>
      ) : null}
      <ReplaySection base={base} csrf={v.csrf} canWrite={v.canWrite} form={v.replay} replays={v.replays} />
      <h2>Deliveries</h2>
      <Table
        caption="Deliveries"
        head={['Delivery', 'Event', 'Status', 'Attempts', 'Last answer', 'Next retry', 'Created', '']}
        count={v.deliveries.length}
        empty="No deliveries yet."
      >
        {v.deliveries.map((d) => (
          <tr>
            <td>
              <code>{d.id}</code>
            </td>
            <td>{d.event}</td>
            <td>
              <Badge value={d.status} />
            </td>
            <td class="num">{d.attempts}</td>
            <td>{d.lastStatusCode ?? d.lastError ?? '—'}</td>
            <td>{when(d.nextRetryAt)}</td>
            <td>{when(d.createdAt)}</td>
            <td>{v.canWrite ? <ActionButton action={`${base}/deliveries/${d.id}/redeliver`} csrf={v.csrf} label="Redeliver" /> : null}</td>
          </tr>
        ))}
      </Table>
      <Pager page={v.page} url={v.url} />
    </>
  );
}

/** The replay form (POST /api/webhooks/{id}/replay) and the endpoint's latest replays with their counts. */
function ReplaySection(v: { base: string; csrf: string; canWrite: boolean; form: FormState; replays: Replay[] }) {
  return (
    <>
      {v.canWrite ? (
        <section class="card" aria-labelledby="replay-hook">
          <h2 id="replay-hook">Replay events</h2>
          <p class="muted">
            Sends this endpoint again the events of a window (within the days the store keeps its events, EVENT_RETENTION_DAYS), once per event: those already delivered or on their
            way are skipped, those that failed for good are queued again. Each replayed delivery carries <code>X-Store-Replay</code>.
          </p>
          <PostForm action={`${v.base}/replay`} csrf={v.csrf}>
            <FormErrors form={v.form} fields={['from', 'to', 'types']} />
            <Field form={v.form} name="from" label="From (UTC)" type="datetime-local" required />
            <Field form={v.form} name="to" label="To (UTC)" type="datetime-local" required hint="Events created before this time." />
            <Field
              form={v.form}
              name="types"
              label="Kinds"
              placeholder="order.*, payment.completed"
              hint="Blank: every kind the endpoint receives. order.* is every order. kind."
            />
            <button type="submit">Replay</button>
          </PostForm>
        </section>
      ) : null}
      <Table
        caption="Replays"
        head={['Replay', 'Window', 'Kinds', 'Status', 'Matched', 'Queued', 'Skipped', 'Started', 'Finished']}
        count={v.replays.length}
        empty="No replays yet."
      >
        {v.replays.map((r) => (
          <tr>
            <td>
              <code>{r.id}</code>
            </td>
            <td>
              {when(r.from)} – {when(r.to)}
            </td>
            <td>{r.types?.join(', ') ?? 'all'}</td>
            <td>
              <Badge value={r.status} />
              {r.error ? <div class="muted">{r.error}</div> : null}
            </td>
            <td class="num">{r.matched}</td>
            <td class="num">{r.queued}</td>
            <td class="num">{r.skipped}</td>
            <td>{when(r.createdAt)}</td>
            <td>{when(r.finishedAt)}</td>
          </tr>
        ))}
      </Table>
    </>
  );
}
