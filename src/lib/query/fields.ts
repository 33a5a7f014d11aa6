import type { z } from '@hono/zod-openapi';
import { toCamelCase } from './names';

/** A field selection or the selectable shape of a resource: `true` for a leaf, a tree for an object. */
export type FieldTree = { [name: string]: true | FieldTree };

/**
 * The selectable fields of a resource, read off its response schema so the schema stays the one
 * source of truth: objects and lists of objects become nested trees, everything else a leaf.
 */
export function fieldTreeFromSchema(schema: z.ZodType): FieldTree {
  const tree: FieldTree = {};
  for (const [name, field] of Object.entries(objectShape(schema) ?? {})) {
    const nested = objectShape(unwrap(field as z.ZodType));
    tree[name] = nested ? fieldTreeFromSchema(unwrap(field as z.ZodType)) : true;
  }
  return tree;
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const def = current._zod.def as { type: string; innerType?: z.ZodType; element?: z.ZodType; in?: z.ZodType };
    if ((def.type === 'optional' || def.type === 'nullable' || def.type === 'default') && def.innerType) current = def.innerType;
    else if (def.type === 'array' && def.element) current = def.element;
    else if (def.type === 'pipe' && def.in) current = def.in;
    else return current;
  }
}

function objectShape(schema: z.ZodType): Record<string, unknown> | undefined {
  const def = unwrap(schema)._zod.def as { type: string; shape?: Record<string, unknown> };
  return def.type === 'object' ? def.shape : undefined;
}

export class FieldSyntaxError extends Error {}

/**
 * Parses `id,name,variants(id,price)` against what may be selected. Names may be snake_case.
 * Throws FieldSyntaxError with a message naming the first problem.
 */
export function parseFields(input: string, selectable: FieldTree): FieldTree {
  let pos = 0;

  const parseList = (allowed: FieldTree, path: string): FieldTree => {
    const selection: FieldTree = {};
    for (;;) {
      const start = pos;
      while (pos < input.length && /[A-Za-z0-9_]/.test(input[pos]!)) pos++;
      const raw = input.slice(start, pos);
      if (!raw) throw new FieldSyntaxError(`expected a field name at position ${start + 1}`);
      const name = toCamelCase(raw);
      const qualified = path ? `${path}.${raw}` : raw;
      const rule = allowed[name];
      if (!rule) {
        throw new FieldSyntaxError(`unknown field '${qualified}'; selectable: ${Object.keys(allowed).join(', ')}`);
      }
      if (input[pos] === '(') {
        if (rule === true) throw new FieldSyntaxError(`'${qualified}' has no sub-fields to select`);
        pos++;
        selection[name] = parseList(rule, qualified);
        if (input[pos] !== ')') throw new FieldSyntaxError(`expected ')' at position ${pos + 1}`);
        pos++;
      } else {
        selection[name] = true;
      }
      if (pos === input.length || input[pos] === ')') return selection;
      if (input[pos] !== ',') throw new FieldSyntaxError(`unexpected '${input[pos]}' at position ${pos + 1}`);
      pos++;
    }
  };

  const selection = parseList(selectable, '');
  if (pos !== input.length) throw new FieldSyntaxError(`unexpected ')' at position ${pos + 1}`);
  return selection;
}

/** Every field optional, in nested objects and list items too: what a selection may leave of a value. */
export type DeepPartial<T> = T extends readonly (infer I)[] ? DeepPartial<I>[] : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;

declare const selectedFrom: unique symbol;
/**
 * What `project` returns: part of a `T`, read as a deep-partial of it, and remembering `T` (a type-only
 * mark, never present) so `ok()`/`list()` check the whole item against the route's declared schema,
 * which documents it whole (a `fields` selection narrows it: docs/api.md).
 */
export type Selected<T> = DeepPartial<T> & { readonly [selectedFrom]: T };

/** Keeps only the selected fields of a value (and of each item of a list, and nested objects). */
export function project<T>(value: T, selection: FieldTree | undefined): Selected<T> {
  return projected(value, selection) as Selected<T>;
}

function projected(value: unknown, selection: FieldTree | undefined): unknown {
  if (!selection || value === null || value === undefined) return value;
  if (Array.isArray(value)) return value.map((item) => projected(item, selection));
  if (typeof value !== 'object') return value;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, rule] of Object.entries(selection)) {
    if (!(name in source)) continue;
    out[name] = rule === true ? source[name] : projected(source[name], rule);
  }
  return out;
}

/** True when a selection (or no selection, meaning everything) includes `name`. */
export function selects(selection: FieldTree | undefined, name: string): boolean {
  return !selection || name in selection;
}
