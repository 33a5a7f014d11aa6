import { beforeAll, describe, expect, it } from 'vitest';
import { currencies } from '../../src/db/schema';
import { adminKey, api, db, uid } from '../helpers';
import { finished, upload } from './import-client';

// Prices per currency in the store's CSV columns: `price_eur` and `compare_at_price_eur` for the
// product, `variant_price_eur` and `variant_compare_at_price_eur` for a variant.

let key: string;
beforeAll(async () => {
  key = await adminKey();
  await db()
    .insert(currencies)
    .values([
      { code: 'EUR', name: 'Euro', symbol: '€', minorUnits: 2, exchangeRate: '0.92' },
      { code: 'JPY', name: 'Yen', symbol: '¥', minorUnits: 0, exchangeRate: '150' },
    ]);
});

const productAt = async (slug: string) => (await api(`/api/products/${slug}`, { key })).body.data;

describe('product import: prices per currency', () => {
  it('reads product and variant prices per currency, names a bad cell by its column, and updates them on a second file', async () => {
    const tag = uid();
    const csv = [
      'handle,name,price,status,sku,price_eur,compare_at_price_eur,option1_name,option1_value,variant_sku,variant_price_eur,variant_price_jpy',
      `scarf-${tag},Scarf ${tag},32,active,SCARF-${tag},29.90,34.90,,,,,`,
      `hat-${tag},Hat ${tag},20,active,,18,,Size,S,HAT-${tag}-S,17.50,2500`,
      `hat-${tag},,,,,,,Size,M,HAT-${tag}-M,,`,
      `,Bad ${tag},5,active,BAD-${tag},,,,,,,1.5`,
      `,Cheap ${tag},5,active,CHEAP-${tag},4,5,,,,,`,
    ].join('\n');
    const dry = await upload(key, csv, '?dry_run=true');
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body.data).toMatchObject({ create: 3, failed: 1 });
    expect(dry.body.data.failures).toEqual([{ line: 5, column: 'variant_price_jpy', reason: expect.stringMatching(/at most 0 decimals/) }]);
    expect(dry.body.data.ignoredColumns).toEqual([]);

    const { done } = await finished(key, (await upload(key, csv)).body.data.id);
    expect(done).toMatchObject({ created: 3, failed: 1 });
    const scarf = await productAt(`scarf-${tag}`);
    expect(scarf.prices).toEqual([{ currency: 'EUR', amount: 29.9, compareAt: 34.9 }]);
    expect(scarf.variants[0].prices).toEqual([{ currency: 'EUR', amount: 29.9, compareAt: 34.9 }]);
    const hat = await productAt(`hat-${tag}`);
    expect(hat.prices).toEqual([{ currency: 'EUR', amount: 18, compareAt: null }]);
    expect(hat.variants.map((v: { prices: unknown }) => v.prices)).toEqual([
      [
        { currency: 'EUR', amount: 17.5, compareAt: null },
        { currency: 'JPY', amount: 2500, compareAt: null },
      ],
      [],
    ]);

    // The same file again changes nothing; a new EUR price updates the product and its variant.
    expect((await finished(key, (await upload(key, csv)).body.data.id)).done).toMatchObject({ unchanged: 3, updated: 0 });
    const again = ['handle,name,price,sku,price_eur', `scarf-${tag},Scarf ${tag},32,SCARF-${tag},27.50`].join('\n');
    expect((await finished(key, (await upload(key, again)).body.data.id)).done).toMatchObject({ updated: 1 });
    const repriced = await productAt(`scarf-${tag}`);
    expect(repriced.prices).toEqual([{ currency: 'EUR', amount: 27.5, compareAt: null }]);
    expect(repriced.variants[0].prices).toEqual([{ currency: 'EUR', amount: 27.5, compareAt: null }]);
  });
});
