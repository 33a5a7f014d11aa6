import { expect } from 'vitest';
import { api } from '../helpers';

/** Uploads a CSV file to the import endpoint. */
export const upload = (key: string, csv: string, query = '') => api(`/api/products/import${query}`, { method: 'POST', key, body: csv, headers: { 'Content-Type': 'text/csv' } });

/** Polls the import until the queue has finished it (`completed` or `failed`); returns it and every state seen on the way. */
export async function finished(key: string, id: string) {
  const seen: any[] = [];
  for (let i = 0; i < 1200; i++) {
    const res = await api(`/api/imports/${id}`, { key });
    expect(res.status).toBe(200);
    seen.push(res.body.data);
    if (res.body.data.status === 'completed' || res.body.data.status === 'failed') return { done: res.body.data, seen };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`import ${id} did not finish: ${JSON.stringify(seen.at(-1))}`);
}
