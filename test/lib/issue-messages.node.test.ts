import { readFileSync } from 'node:fs';
import { z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { ApiError, DETAIL_CODES, detailOf } from '../../src/lib/errors';
import { fieldProblems } from '../../src/lib/validation';

/** The 422 a body gets from `schema`, as the validation hook builds it. */
function validationOf(schema: z.ZodType, body: unknown) {
  const parsed = schema.safeParse(body);
  if (parsed.success) throw new Error('expected the body to fail');
  return ApiError.validation(fieldProblems(parsed.error));
}

const detailsOf = (schema: z.ZodType, body: unknown) => validationOf(schema, body).details;

describe('validation messages', () => {
  const Product = z
    .object({
      name: z.string().min(1).max(200),
      price: z.number().min(0),
      quantity: z.int().min(1),
      email: z.email(),
      status: z.enum(['pending', 'processing', 'shipped']),
      tags: z.array(z.string()).min(1).optional(),
      slug: z
        .string()
        .regex(/^[a-z]+$/, 'must be lowercase letters')
        .optional(),
      discount: z.number().positive().optional(),
    })
    .strict();
  const good = { name: 'Mug', price: 1, quantity: 1, email: 'a@b.co', status: 'pending' };
  const one = (patch: Record<string, unknown>) => {
    const details = detailsOf(Product, { ...good, ...patch });
    expect(details).toHaveLength(1);
    return details[0]!;
  };

  it('words each zod issue kind for a person, the field name first, with its detail code', () => {
    expect(one({ name: '' })).toEqual({ field: 'name', code: 'too_small', message: 'name must not be empty' });
    expect(one({ name: 'x'.repeat(201) })).toEqual({ field: 'name', code: 'too_big', message: 'name must be at most 200 characters' });
    expect(one({ price: -1 })).toEqual({ field: 'price', code: 'too_small', message: 'price must be 0 or more' });
    expect(one({ price: 'ten' })).toEqual({ field: 'price', code: 'invalid_type', message: 'price must be a number' });
    expect(one({ quantity: 0 })).toEqual({ field: 'quantity', code: 'too_small', message: 'quantity must be at least 1' });
    expect(one({ quantity: 1.5 })).toEqual({ field: 'quantity', code: 'invalid_type', message: 'quantity must be a whole number' });
    expect(one({ email: 'nope' })).toEqual({ field: 'email', code: 'invalid_format', message: 'email must be a valid email address' });
    expect(one({ status: 'lost' })).toEqual({ field: 'status', code: 'invalid_value', message: 'status must be one of: pending, processing, shipped' });
    expect(one({ name: undefined })).toEqual({ field: 'name', code: 'required', message: 'name is required' });
    expect(one({ colour: 'red' })).toEqual({ field: 'colour', code: 'unknown_field', message: 'colour is not a known field' });
    expect(one({ tags: [] })).toEqual({ field: 'tags', code: 'too_small', message: 'tags must have at least one item' });
    expect(one({ discount: 0 })).toEqual({ field: 'discount', code: 'too_small', message: 'discount must be more than 0' });
  });

  it("keeps a schema's own message, worded after the field name", () => {
    expect(one({ slug: 'A' })).toEqual({ field: 'slug', code: 'invalid_format', message: 'slug must be lowercase letters' });
    const Refined = z.object({ at: z.string().refine(() => false, 'must be in the future'), note: z.string().refine(() => false, 'give a note') });
    expect(detailsOf(Refined, { at: 'x', note: 'y' })).toEqual([
      { field: 'at', code: 'invalid_value', message: 'at must be in the future' },
      { field: 'note', code: 'invalid_value', message: 'note: give a note' },
    ]);
  });

  it('names nested fields by their dotted path', () => {
    const Variants = z.object({ variants: z.array(z.object({ sku: z.string().min(1) })) });
    expect(detailsOf(Variants, { variants: [{ sku: 'a' }, { sku: '' }] })).toEqual([{ field: 'variants.1.sku', code: 'too_small', message: 'variants.1.sku must not be empty' }]);
  });

  it("says the single field's problem at the top, or which fields are invalid when there are several", () => {
    expect(validationOf(Product, { ...good, price: -1 }).message).toBe('price must be 0 or more');
    expect(validationOf(Product, { ...good, name: '', price: -1, email: 'x' }).message).toBe('3 fields are invalid: name, price, email');
  });

  it('uses only documented detail codes', () => {
    const codes = detailsOf(Product, { name: '', price: 'x', quantity: 1.5, email: 'x', status: 'x', tags: [], colour: 1 }).map((d) => d.code);
    for (const code of codes) expect(Object.keys(DETAIL_CODES)).toContain(code);
  });

  it('puts a problem that is not a predicate after a colon', () => {
    expect(detailOf({ field: 'variantId', problem: "no variant 'var_x'", code: 'not_found' })).toEqual({
      field: 'variantId',
      code: 'not_found',
      message: "variantId: no variant 'var_x'",
    });
    expect(detailOf({ field: 'quantity', problem: 'must be at least 1' }).message).toBe('quantity must be at least 1');
  });
});

describe('ApiError details', () => {
  it('is an empty list on errors about no one field', () => {
    expect(ApiError.notFound('Product', 'prod_x').toBody().error.details).toEqual([]);
    expect(ApiError.unauthenticated('no').toBody().error.details).toEqual([]);
    expect(ApiError.forbidden().toBody().error.details).toEqual([]);
    expect(ApiError.conflict('busy').toBody().error.details).toEqual([]);
  });

  it('names the parameter, header or conflicting field in a list of one', () => {
    expect(ApiError.badParameter('limit', 'must be at most 100', 'too_big').details).toEqual([{ field: 'limit', code: 'too_big', message: 'limit must be at most 100' }]);
    expect(ApiError.conflict('A resource with this slug already exists', 'slug', { code: 'already_exists', problem: 'is already taken' }).details).toEqual([
      { field: 'slug', code: 'already_exists', message: 'slug is already taken' },
    ]);
  });
});

describe('the detail codes in docs/api.md', () => {
  it('lists every detail code, and no other, in its table', () => {
    const doc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    const table = doc.slice(doc.indexOf('| detail code | meaning |'));
    const listed = [...table.slice(0, table.indexOf('\n\n')).matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]);
    expect(listed.sort()).toEqual(Object.keys(DETAIL_CODES).sort());
  });
});
