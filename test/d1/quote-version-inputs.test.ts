import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client';
import { currencies, promotionUsages, taxRates } from '../../src/db/schema';
import { QUOTE_INPUTS_WITHOUT_BUMP } from '../../src/db/triggers/quote-version';
import { type TriggerEvent, triggerShape } from '../../src/db/triggers/trigger-sql';
import { interceptD1 } from '../../src/d1/intercept';
import { newId } from '../../src/lib/ids';
// The one place this test names where the quote's reads live.
import { readQuoteInputs } from '../../src/modules/checkout/quote';
import { adminKey, api, createCategory, createProduct, db, insertUser, uid } from '../helpers';

// Isolates keep a quote's inputs per quote_version (src/modules/checkout/quote-inputs.ts): a table the
// quote reads whose writes do not bump it prices orders from stale inputs, silently. So the tables
// are not listed by hand: readQuoteInputs runs against the migrated database through a recording
// wrapper, the tables are read from the SQL it ran, and each must have, in sqlite_master, a trigger
// bumping quote_version on insert, on update and on delete, or a reason in QUOTE_INPUTS_WITHOUT_BUMP
// (src/db/triggers/quote-version.ts) for the write that has none.

const EVENTS: TriggerEvent[] = ['INSERT', 'UPDATE', 'DELETE'];
const FIX = 'declare its bump in QUOTE_VERSION_BUMPS, run `npm run db:triggers`, or say in QUOTE_INPUTS_WITHOUT_BUMP why that write needs none';

/** The tables the SQL names after FROM or JOIN that are tables of the database (not CTEs, json_each, subqueries). */
function tablesOf(statements: readonly string[], tables: ReadonlySet<string>): Set<string> {
  const named = statements.flatMap((sql) => [...sql.matchAll(/\b(?:from|join)\s+[`"]?([A-Za-z_]\w*)[`"]?/gi)].map((m) => m[1]!));
  return new Set(named.filter((name) => tables.has(name)));
}

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

/** A request that takes every branch of readQuoteInputs, with rows for each read to find. */
async function everyInput() {
  const post = async (path: string, json: unknown) => {
    const res = await api(path, { method: 'POST', key, json });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    return res.body.data;
  };
  const parent = await createCategory(key);
  const child = await createCategory(key, { parentId: parent.id });
  const product = await createProduct(key, { price: 20, stock: 10, categoryIds: [child.id] });
  const variantId = product.variants[0].id as string;
  const customer = await insertUser();
  const group = await post('/api/customer-groups', { name: `Group ${uid()}` });
  await post(`/api/customer-groups/${group.id}/members`, { customerIds: [customer.user.id] });
  await post('/api/price-lists', { name: `List ${uid()}`, customerGroupId: group.id, currency: 'USD', status: 'active', prices: [{ variantId, amount: 18 }] });
  const code = `QV${uid().toUpperCase()}`;
  await post('/api/promotions', { name: 'Coupon', code, type: 'percentage', value: 10, target: 'items', include: { categoryIds: [parent.id] } });
  const limited = await post('/api/promotions', { name: 'Once each', type: 'fixed', value: 1, target: 'items', perCustomerLimit: 2 });
  await db()
    .insert(promotionUsages)
    .values({ id: newId('pu'), promotionId: limited.id, orderId: newId('ord'), customerKey: customer.user.id });
  await db().insert(currencies).values({ code: 'EUR', name: 'Euro', symbol: '€', minorUnits: 2, exchangeRate: '0.5' }).onConflictDoNothing();
  await db()
    .insert(taxRates)
    .values({ id: newId('tax'), name: 'NY', country: 'US', region: 'NY', rate: '8.875' });
  return {
    parentId: parent.id as string,
    groupId: group.id as string,
    limitedId: limited.id as string,
    request: {
      currency: 'EUR',
      lines: [{ variantId, quantity: 2 }],
      couponCode: code,
      customerKey: customer.user.id as string,
      shippingAddress: { line1: '1 A St', city: 'NYC', region: 'NY', country: 'US' },
    },
  };
}

describe('the tables a quote reads', () => {
  it('each bump quote_version on insert, update and delete in the migrated database, or say why a write needs not', async () => {
    const fixture = await everyInput();
    const statements: string[] = [];
    const recording = interceptD1(env.DB, {
      batch(batch, proceed) {
        for (const s of batch) statements.push(s.sql ?? '(not prepared through the wrapper)');
        return proceed(batch.map((s) => s.statement));
      },
      lone({ sql, proceed }) {
        statements.push(sql ?? '(not prepared through the wrapper)');
        return proceed();
      },
    });
    const inputs = await readQuoteInputs(createDb(recording), fixture.request);
    // Every branch ran and found its rows: tax, price lists, groups, a customer's uses, the code, the category lineage.
    expect(inputs.variants).toHaveLength(1);
    expect(inputs.taxRates.length).toBeGreaterThan(0);
    expect(inputs.customerPrices.length).toBeGreaterThan(0);
    expect(inputs.customerGroupIds).toEqual([fixture.groupId]);
    expect(inputs.promotionUses).toEqual([{ promotionId: fixture.limitedId, n: 1 }]);
    expect(inputs.promotions.some((p) => p.code === fixture.request.couponCode)).toBe(true);
    expect(Object.values(inputs.categoryIds)[0]).toContain(fixture.parentId);
    expect(statements.filter((s) => s.startsWith('('))).toEqual([]);

    const { results } = await env.DB.prepare("SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'trigger') AND sql IS NOT NULL").all<{
      type: string;
      name: string;
      sql: string;
    }>();
    const read = tablesOf(statements, new Set(results.filter((r) => r.type === 'table').map((r) => r.name)));
    expect(read.size).toBeGreaterThan(10);
    const bumps = results
      .filter((r) => r.type === 'trigger')
      .map((r) => triggerShape(r.sql))
      .filter((t) => t.timing === 'AFTER' && /\bUPDATE\s+`?quote_version`?\s+SET\b/i.test(t.body));
    const bumped = (table: string, event: TriggerEvent) => bumps.some((t) => t.table === table && t.event === event);

    const unbumped = [...read].flatMap((table) =>
      EVENTS.filter((event) => !bumped(table, event) && !QUOTE_INPUTS_WITHOUT_BUMP[table]?.[event]).map((event) => `${table} ${event}`),
    );
    expect(unbumped, FIX).toEqual([]);
    // And no reason stays after its table got a bump or is no longer read.
    const stale = Object.entries(QUOTE_INPUTS_WITHOUT_BUMP).flatMap(([table, reasons]) =>
      Object.keys(reasons)
        .filter((event) => !read.has(table) || bumped(table, event as TriggerEvent))
        .map((event) => `${table} ${event}`),
    );
    expect(stale, 'drop these from QUOTE_INPUTS_WITHOUT_BUMP').toEqual([]);
  });
});
