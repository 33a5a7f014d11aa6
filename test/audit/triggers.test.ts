import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { AUDITED_TABLES, expectedTriggers, NOT_AUDITED, schemaTables } from '../../src/db/audit-triggers';
import { auditedD1 } from '../../src/d1/audit';
import { adminKey, createProduct, uid } from '../helpers';

// The audit log is only as complete as its triggers: every table is audited or says why not, and
// the triggers in the migrated database are the ones the current schema calls for.

const normalize = (sql: string) => sql.replace(/\s+/g, ' ').trim();

describe('audit triggers', () => {
  it('classifies every table of the schema as audited or not, with a reason', () => {
    const unclassified = [...schemaTables().keys()].filter((name) => !(name in AUDITED_TABLES) && !(name in NOT_AUDITED));
    expect(unclassified, 'add each to AUDITED_TABLES or NOT_AUDITED in src/db/audit-triggers.ts').toEqual([]);
    expect(Object.keys(AUDITED_TABLES).filter((name) => name in NOT_AUDITED)).toEqual([]);
  });

  it('writes no CASE ... END inside a trigger, which wrangler d1 migrations apply would take for the end of the trigger', () => {
    const withCase = [...expectedTriggers()].filter(([, sql]) => /\bCASE\b/i.test(sql)).map(([name]) => name);
    expect(withCase).toEqual([]);
  });

  it('has, after the migrations, exactly the triggers the schema calls for', async () => {
    const { results } = await env.DB.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'audit\\_%' ESCAPE '\\'").all<{
      name: string;
      sql: string;
    }>();
    const actual = new Map(results.map((r) => [r.name, normalize(r.sql)]));
    const stale = [...expectedTriggers()].filter(([name, sql]) => actual.get(name) !== normalize(sql)).map(([name]) => name);
    expect(stale, 'run `npm run db:audit-triggers` (inside the migration lock) and commit the migration it writes').toEqual([]);
    expect([...actual.keys()].filter((name) => !expectedTriggers().has(name))).toEqual([]);
  });
});

describe("a variant's stock, audited by a trigger of its own", () => {
  const audited = () => auditedD1(env.DB, () => ({ kind: 'api_key', id: `key_${uid()}`, role: 'admin' }));
  const entries = async (variantId: string) => {
    const { results } = await env.DB.prepare("SELECT changes FROM audit_log WHERE resource = 'variant' AND resource_id = ? AND action = 'update' ORDER BY id")
      .bind(variantId)
      .all<{ changes: string }>();
    return results.map((r) => JSON.parse(r.changes));
  };

  it('records a stock change alone, a stock and price change as one entry with both, and a price set to itself with stock as stock only', async () => {
    const variant = (await createProduct(await adminKey(), { price: 10, stock: 9 })).variants[0];
    const d1 = audited();
    const update = (set: string) => d1.prepare(`UPDATE product_variants SET ${set} WHERE id = ?`).bind(variant.id).run();
    await update('stock = stock - 1');
    await update('stock = stock - 1, price = price + 100');
    await update('stock = stock + 5, price = price');
    await update('name = name'); // nothing changed: no entry
    expect(await entries(variant.id)).toEqual([
      { stock: { before: 9, after: 8 } },
      { price: { before: 1000, after: 1100 }, stock: { before: 8, after: 7 } },
      { stock: { before: 7, after: 12 } },
    ]);
  });
});
