import { env, exports } from 'cloudflare:workers';
import { createDb } from '../src/db/client';
import { createApiKey } from '../src/modules/api-keys/api-keys.service';

export const db = () => createDb(env.DB);

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** Calls the Worker as a client would, and reads the whole body (JSON when it is JSON). */
export async function api<T = any>(path: string, init: RequestInit & { json?: unknown; key?: string } = {}): Promise<ApiResponse<T>> {
  const headers = new Headers(init.headers);
  if (init.key) headers.set('Authorization', `Bearer ${init.key}`);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(init.json);
  }
  const response = await exports.default.fetch(new Request(`http://store.test${path}`, { ...init, headers, body }));
  const text = await response.text();
  const isJson = response.headers.get('Content-Type')?.includes('application/json');
  return { status: response.status, headers: response.headers, body: (isJson && text ? JSON.parse(text) : text) as T };
}

export async function adminKey(): Promise<string> {
  return (await createApiKey(db(), { name: 'test admin', role: 'admin' })).key;
}
