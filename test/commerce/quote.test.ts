import { describe, expect, it } from 'vitest';
import { currencies, taxRates, promotions } from '../../src/db/schema';
import { couponPromotion } from './coupon-reference';
import { newId } from '../../src/lib/ids';
import { quote } from '../../src/modules/checkout/quote';
import { adminKey, createCategory, createProduct, db, uid } from '../helpers';

describe('quote', () => {
  it('prices variants with currency, coupon restricted to a parent category, and the tax of the address region', async () => {
    const key = await adminKey();
    const parent = await createCategory(key);
    const child = await createCategory(key, { parentId: parent.id });
    const shirt = await createProduct(key, { price: 20, categoryIds: [child.id], stock: 10 });
    const mug = await createProduct(key, { price: 10, stock: 10 });
    const code = `SAVE${uid().toUpperCase()}`;
    await db()
      .insert(promotions)
      .values(couponPromotion({ id: newId('coup'), code, type: 'percentage', value: '10', categoryIds: [parent.id] }));
    await db().insert(currencies).values({ code: 'EUR', name: 'Euro', symbol: '€', minorUnits: 2, exchangeRate: '0.5' });
    await db()
      .insert(taxRates)
      .values([
        { id: newId('tax'), name: 'US', country: 'US', region: null, rate: '5' },
        { id: newId('tax'), name: 'NY', country: 'US', region: 'NY', rate: '8.875' },
      ]);
    const q = await quote(db(), {
      currency: 'eur',
      lines: [
        { variantId: shirt.variants[0].id, quantity: 2 },
        { variantId: mug.variants[0].id, quantity: 1 },
      ],
      couponCode: code.toLowerCase(),
      shippingAddress: { line1: '1 A St', city: 'NYC', region: 'ny', country: 'US' },
    });
    expect(q.currency.code).toBe('EUR');
    expect(q.lines.map((l) => l.taxRate)).toEqual(['8.875', '8.875']); // NY's rate, not the country's
    expect(q.lines.map((l) => [l.unitPrice, l.subtotal, l.discount])).toEqual([
      [1000, 2000, 200],
      [500, 500, 0],
    ]);
    expect(q.totals).toMatchObject({ subtotal: 2500, discountTotal: 200, taxTotal: 160 + 44 }); // 159.75, 44.375
  });

  it('names every bad line, currency and coupon at once', async () => {
    const draft = await createProduct(await adminKey(), { status: 'draft' });
    await expect(
      quote(db(), {
        currency: 'XXX',
        couponCode: 'NOPE',
        lines: [
          { variantId: 'var_missing', quantity: 1 },
          { variantId: draft.variants[0].id, quantity: 1 },
        ],
      }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [
        { field: 'currency', code: 'invalid_value', message: expect.stringMatching(/^currency: /) },
        { field: 'lines.0.variantId', code: 'not_found', message: "lines.0.variantId: no variant 'var_missing'" },
        { field: 'lines.1.variantId', code: 'invalid_value', message: expect.stringMatching(/not for sale/) },
        { field: 'couponCode', code: 'not_found', message: "couponCode: no coupon 'NOPE'" },
      ],
    });
  });
});
