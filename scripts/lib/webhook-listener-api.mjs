// How `npm run webhooks:listen` registers itself with the local API and remembers the endpoint.
//
// The first run POSTs /api/webhooks with the admin key `npm run dev` keeps in .wrangler/dev-admin-key
// and saves { endpointId, secret, url } in .wrangler/webhook-listener.json (the secret is shown only
// at creation). Later runs reuse that endpoint, so deliveries missed while the listener was stopped
// are retried to it; if it was deleted (404) a new one is registered. It subscribes to the kinds of
// --types (every kind without), and --since replays the events of [since, now] to it.

import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DEV_KEY_FILE, readDevKey } from './api-keys.mjs';
import { ROOT } from './wrangler.mjs';

export const LISTENER_FILE = path.join(ROOT, '.wrangler', 'webhook-listener.json');
export const LISTENER_DESCRIPTION = 'npm run webhooks:listen';

/** A problem to print as it is, then exit 1. */
export class ListenerError extends Error {
  constructor(message, hint) {
    super(message);
    this.name = 'ListenerError';
    this.hint = hint;
  }
}

/** The saved endpoint, or undefined when there is none or the file is not what we wrote. */
export async function readSavedEndpoint(file = LISTENER_FILE) {
  try {
    const saved = JSON.parse(await readFile(file, 'utf8'));
    if (typeof saved?.endpointId === 'string' && typeof saved?.secret === 'string' && typeof saved?.url === 'string') return saved;
    return undefined;
  } catch (error) {
    if (error.code === 'ENOENT' || error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/** Saves { endpointId, secret, url } readable by the owner only (it holds a signing secret). */
export async function saveEndpoint(saved, file = LISTENER_FILE) {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(saved, null, 2)}\n`, { encoding: 'utf8', mode: 0o600 });
  await chmod(file, 0o600).catch(() => {});
}

/** A small client for the local API with the dev admin key. */
export function localApi(apiBase, key) {
  async function call(method, pathname, body) {
    let response;
    try {
      response = await fetch(`${apiBase}${pathname}`, {
        method,
        headers: { Authorization: `Bearer ${key}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(10_000),
      });
    } catch (error) {
      throw notRunning(apiBase, error);
    }
    const text = await response.text();
    let json;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, json, text };
  }
  return { call };
}

function notRunning(apiBase, error) {
  const cause = error?.cause?.code ?? error?.name ?? error?.message;
  return new ListenerError(
    `The store API is not running at ${apiBase} (${cause === 'ECONNREFUSED' ? 'connection refused' : cause}).`,
    'Start it in another terminal with `npm run dev`, then run `npm run webhooks:listen` again.\n' +
      'To verify deliveries without the API: npm run webhooks:listen -- --no-register --secret whsec_...',
  );
}

/** "VALIDATION_ERROR: ... (url: must be https)" from an error envelope, else the raw text. */
export function describeError({ status, json, text }) {
  const error = json?.error;
  if (!error) return `HTTP ${status}${text ? `: ${text.slice(0, 300)}` : ''}`;
  const one = (d) => (d && typeof d === 'object' ? [d.field ?? d.path, d.issue ?? d.message].filter(Boolean).join(': ') : String(d));
  const details = Array.isArray(error.details) ? error.details.map(one).join('; ') : error.details ? one(error.details) : '';
  return `${status} ${error.code}: ${error.message}${details ? ` (${details})` : ''}`;
}

function refused(response, doing) {
  if (response.status === 401 || response.status === 403) {
    return new ListenerError(
      `The local API refused the admin key in ${path.relative(ROOT, DEV_KEY_FILE)} while ${doing}: ${describeError(response)}`,
      'Restart `npm run dev`: it replaces a missing, revoked or expired key.',
    );
  }
  if (response.status === 404 && doing.startsWith('registering')) {
    return new ListenerError(`The local API has no /api/webhooks (${describeError(response)}).`, 'Is `npm run dev` serving this checkout, and up to date?');
  }
  const hint = /private|loopback|https/i.test(response.text ?? '')
    ? 'Local webhook URLs need WEBHOOK_ALLOW_PRIVATE_URLS="true" in .dev.vars (`npm run dev` adds it); restart `npm run dev` after changing it.'
    : undefined;
  return new ListenerError(`The local API answered ${describeError(response)} while ${doing}.`, hint);
}

async function devApi(apiBase) {
  const key = await readDevKey();
  if (!key) {
    throw new ListenerError(
      `No admin API key in ${path.relative(ROOT, DEV_KEY_FILE)}.`,
      'Run `npm run dev` once (it creates the key and serves the API), then run `npm run webhooks:listen` again.',
    );
  }
  return localApi(apiBase, key);
}

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** --since: `90s`, `30m`, `2h`, `1d` back from `now`, or an ISO time; as ISO, or undefined when it is neither. */
export function sinceTime(value, now = new Date()) {
  const ago = /^(\d+)([smhd])$/.exec(value.trim());
  if (ago) return new Date(now.getTime() - Number(ago[1]) * UNIT_MS[ago[2]]).toISOString();
  const time = /^\d{4}-\d\d-\d\d/.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isFinite(time) ? new Date(time).toISOString() : undefined;
}

/**
 * The kinds to subscribe to for --types: `["*"]` without it; else its kinds, each `prefix.*` expanded
 * with the kinds the API sends (the `webhooks` of its OpenAPI document), as an endpoint takes no patterns.
 */
export async function subscriptionFor(apiBase, types) {
  if (!types) return ['*'];
  if (!types.some((t) => t.endsWith('.*'))) return types;
  let kinds;
  try {
    const response = await fetch(`${apiBase}/api/openapi.json`, { signal: AbortSignal.timeout(10_000) });
    kinds = Object.keys((await response.json()).webhooks ?? {}).filter((kind) => kind !== 'ping');
  } catch (error) {
    throw notRunning(apiBase, error);
  }
  const chosen = kinds.filter((kind) => types.some((t) => (t.endsWith('.*') ? kind.startsWith(t.slice(0, -1)) : kind === t)));
  if (chosen.length === 0) throw new ListenerError(`--types ${types.join(',')} names no event kind the API sends; it sends ${kinds.join(', ')}.`);
  return chosen;
}

const sameKinds = (a, b) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

/**
 * Makes sure an endpoint for `url`, subscribed to `events`, exists on the local API and returns
 * { endpointId, secret, url, how: 'registered' | 'reused' | 'reregistered', notes: string[] }.
 */
export async function ensureEndpoint({ apiBase, url, file = LISTENER_FILE, events = ['*'] }) {
  const api = await devApi(apiBase);
  const notes = [];

  const saved = await readSavedEndpoint(file);
  if (saved) {
    const current = await api.call('GET', `/api/webhooks/${encodeURIComponent(saved.endpointId)}`);
    if (current.status === 200) {
      const endpoint = current.json?.data ?? {};
      const patch = {};
      if (endpoint.url !== undefined && endpoint.url !== url) {
        patch.url = url;
        notes.push(`its URL was ${endpoint.url}; changed to ${url}`);
      }
      if (Array.isArray(endpoint.events) && !sameKinds(endpoint.events, events)) {
        patch.events = events;
        notes.push(`it received ${endpoint.events.join(', ')}; now ${events.join(', ')}`);
      }
      if (endpoint.active === false) {
        patch.active = true;
        notes.push(endpoint.disabledReason ? `it was disabled (${endpoint.disabledReason}); switched it back on` : 'it was inactive; switched it back on');
      }
      if (Object.keys(patch).length) {
        const updated = await api.call('PATCH', `/api/webhooks/${encodeURIComponent(saved.endpointId)}`, patch);
        if (updated.status !== 200) throw refused(updated, `updating endpoint ${saved.endpointId}`);
      }
      if (saved.url !== url) await saveEndpoint({ ...saved, url }, file);
      return { ...saved, url, how: 'reused', notes };
    }
    if (current.status !== 404) throw refused(current, `reading endpoint ${saved.endpointId}`);
    notes.push(`the saved endpoint ${saved.endpointId} no longer exists`);
  }

  const created = await api.call('POST', '/api/webhooks', { url, events, description: LISTENER_DESCRIPTION });
  if (created.status !== 201) throw refused(created, 'registering the listener');
  const data = created.json?.data;
  if (typeof data?.id !== 'string' || typeof data?.secret !== 'string') {
    throw new ListenerError(`POST /api/webhooks answered 201 without data.id and data.secret: ${created.text.slice(0, 300)}`);
  }
  const record = { endpointId: data.id, secret: data.secret, url };
  await saveEndpoint(record, file);
  return { ...record, how: saved ? 'reregistered' : 'registered', notes };
}

/** --since: POST /api/webhooks/{id}/replay for [from, to] (and --types); returns the replay. */
export async function startReplay({ apiBase, endpointId, from, to, types }) {
  const api = await devApi(apiBase);
  const started = await api.call('POST', `/api/webhooks/${encodeURIComponent(endpointId)}/replay`, { from, to, ...(types ? { types } : {}) });
  if (started.status !== 202) throw refused(started, `replaying events since ${from}`);
  return started.json.data;
}

/** Polls the replay until it completes or fails (or `timeoutMs` passes); returns it as last read. */
export async function followReplay({ apiBase, endpointId, replayId, timeoutMs = 120_000, intervalMs = 500 }) {
  const api = await devApi(apiBase);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const read = await api.call('GET', `/api/webhooks/${encodeURIComponent(endpointId)}/replays/${encodeURIComponent(replayId)}`);
    if (read.status !== 200) throw refused(read, `following replay ${replayId}`);
    const replay = read.json.data;
    if (replay.status === 'completed' || replay.status === 'failed' || Date.now() > deadline) return replay;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
