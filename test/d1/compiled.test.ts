import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { compiled, keptQueries, type Slot } from '../../src/db/compiled';
import { currencies, products } from '../../src/db/schema';
import { adminKey, createProduct, db } from '../helpers';

// Compiled and kept queries (src/db/compiled.ts) read rows with their own row reader, built once per
// query: the rows must be exactly what Drizzle's own builders return, through `await` and db.batch().

const productById = compiled((d, p: Slot<'id'>) =>
  d
    .select()
    .from(products)
    .where(eq(products.id, p('id'))),
);
const currencyColumns = compiled((d, p: Slot<'code'>) =>
  d
    .select({ code: currencies.code, enabled: currencies.enabled, doubled: sql<number>`${currencies.minorUnits} * 2`.as('doubled'), nothing: sql`null` })
    .from(currencies)
    .where(eq(currencies.code, p('code'))),
);

describe('compiled queries', () => {
  it('read the rows Drizzle reads: JSON columns, nulls, booleans, SQL fields, alone and in a batch', async () => {
    const key = await adminKey();
    const made = await createProduct(key, { name: 'Compiled Lamp', price: 12.5, attributes: { colour: 'red' }, images: [{ url: 'https://example.com/a.png', alt: 'A' }] });
    const id = made.id as string;
    const d = db();
    const drizzleProduct = await d.select().from(products).where(eq(products.id, id));
    expect(drizzleProduct[0]?.attributes).toEqual({ colour: 'red' });
    expect(await productById(d, { id })).toEqual(drizzleProduct);
    const [inBatch] = await d.batch([productById(d, { id })]);
    expect(inBatch).toEqual(drizzleProduct);

    const code = (await d.select({ code: currencies.code }).from(currencies).limit(1))[0]!.code;
    const drizzleCurrency = await d
      .select({ code: currencies.code, enabled: currencies.enabled, doubled: sql<number>`${currencies.minorUnits} * 2`.as('doubled'), nothing: sql`null` })
      .from(currencies)
      .where(eq(currencies.code, code));
    expect(typeof drizzleCurrency[0]?.enabled).toBe('boolean');
    expect(await currencyColumns(d, { code })).toEqual(drizzleCurrency);
    expect(await productById(d, { id: 'prd_none' })).toEqual([]);
  });
});

describe('keptQueries', () => {
  it('builds once per key, and each call runs on the database it is given', async () => {
    let builds = 0;
    const build = (name: string) => () => {
      builds++;
      return { rows: db().select({ name: products.name }).from(products).where(eq(products.name, name)), none: undefined };
    };
    const key = await adminKey();
    await createProduct(key, { name: 'Kept Query Chair', price: 3 });
    const first = keptQueries(db(), 'test kept chair', build('Kept Query Chair'));
    const again = keptQueries(db(), 'test kept chair', build('Kept Query Chair'));
    expect(builds).toBe(1);
    expect(first.none).toBeUndefined();
    expect(await first.rows).toEqual([{ name: 'Kept Query Chair' }]);
    const [batched] = await db().batch([again.rows]);
    expect(batched).toEqual([{ name: 'Kept Query Chair' }]);
    const other = keptQueries(db(), 'test kept other', build('No Such Chair'));
    expect(builds).toBe(2);
    expect(await other.rows).toEqual([]);
  });
});
