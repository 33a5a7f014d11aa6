import { describe, expect, it } from 'vitest';
import { adminKey, api } from '../helpers';

// Every documented operation, called by an admin with bad input of several shapes: whatever the
// answer, it is in the error envelope and never a 500 (docs/api.md, Errors: bad input is a clear 4xx).

type Operation = { method: string; path: string; hasBody: boolean };

async function operations(): Promise<Operation[]> {
  const doc = (await api('/api/openapi.json')).body as { paths: Record<string, Record<string, { requestBody?: unknown }>> };
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ method: method.toUpperCase(), path, hasBody: Boolean(op.requestBody) })),
  );
}

const BODIES: unknown[] = [{}, [], { id: 1, name: ['x'], email: 5, amount: 'lots', lines: 'x', quantity: -1, url: 7, status: {}, code: null }];
const IDS = ['nope', 'x'.repeat(150)];
const QUERIES = ['', '?limit=abc&sort=zzz:up', '?fields=(((&created_after=2026-02-30'];

describe('no input reaches a 500', () => {
  it('answers every operation, with bad ids, bodies and queries, without a server error', async () => {
    const key = await adminKey();
    const failures: string[] = [];
    for (const op of await operations()) {
      for (const id of IDS) {
        const path = op.path.replace(/\{[^}]+\}/g, encodeURIComponent(id));
        const calls =
          op.method === 'GET'
            ? QUERIES.map((q) => ({ url: path + q, json: undefined }))
            : op.hasBody
              ? BODIES.map((json) => ({ url: path, json }))
              : [{ url: path, json: undefined }];
        for (const call of calls) {
          const res = await api(call.url, { method: op.method, key, ...(call.json !== undefined ? { json: call.json } : {}) });
          if (res.status >= 500) failures.push(`${op.method} ${call.url} ${JSON.stringify(call.json)} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
          else if (res.status >= 400) expect(res.body.success, `${op.method} ${call.url}`).toBe(false);
        }
        if (!op.path.includes('{')) break;
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);
});
