import { z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { fieldTreeFromSchema, parseFields, parseSort, project } from '../../src/lib/query';

const Item = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  brand: z.object({ id: z.string(), name: z.string() }).nullable(),
  variants: z.array(z.object({ id: z.string(), price: z.number(), options: z.record(z.string(), z.string()) })),
  tags: z.array(z.string()),
});
const selectable = fieldTreeFromSchema(Item);

describe('fieldTreeFromSchema', () => {
  it('reads nested objects and lists of objects off the response schema', () => {
    expect(selectable).toEqual({
      id: true,
      name: true,
      createdAt: true,
      brand: { id: true, name: true },
      variants: { id: true, price: true, options: true },
      tags: true,
    });
  });
});

describe('parseFields', () => {
  it('parses flat and nested selections, in either spelling', () => {
    expect(parseFields('id,name,variants(id,price)', selectable)).toEqual({ id: true, name: true, variants: { id: true, price: true } });
    expect(parseFields('created_at,brand(name)', selectable)).toEqual({ createdAt: true, brand: { name: true } });
    expect(parseFields('variants', selectable)).toEqual({ variants: true });
  });

  it.each([
    ['', /expected a field name/],
    ['id,', /expected a field name/],
    ['nope', /unknown field 'nope'/],
    ['variants(nope)', /unknown field 'variants.nope'/],
    ['variants(id', /expected '\)'/],
    ['id)', /unexpected '\)'/],
    ['name(id)', /'name' has no sub-fields/],
    ['id name', /unexpected ' '/],
  ])('rejects %j', (input, message) => {
    expect(() => parseFields(input, selectable)).toThrow(message);
  });
});

describe('project', () => {
  const item = {
    id: 'a',
    name: 'A',
    createdAt: 't',
    brand: null,
    variants: [
      { id: 'v1', price: 1, options: {} },
      { id: 'v2', price: 2, options: {} },
    ],
    tags: ['x'],
  };

  it('keeps only the selected fields, in lists and nested objects', () => {
    expect(project(item, { id: true, variants: { price: true } })).toEqual({ id: 'a', variants: [{ price: 1 }, { price: 2 }] });
    expect(project(item, { brand: { name: true } })).toEqual({ brand: null });
    expect(project(item, undefined)).toBe(item);
  });
});

describe('parseSort', () => {
  const sortable = ['createdAt', 'price', 'name'];
  it('parses keys in order with asc by default', () => {
    expect(parseSort('created_at:desc,price', sortable)).toEqual([
      { field: 'createdAt', direction: 'desc' },
      { field: 'price', direction: 'asc' },
    ]);
    expect(parseSort('name:DESC', sortable)).toEqual([{ field: 'name', direction: 'desc' }]);
  });

  it.each([
    ['stock', /cannot sort on 'stock'/],
    ['price:up', /must be asc or desc/],
    ['price,price:desc', /more than once/],
    ['price,', /empty sort key/],
    ['price:asc:x', /field:direction/],
  ])('rejects %j', (input, message) => {
    expect(() => parseSort(input, sortable)).toThrow(message);
  });
});
