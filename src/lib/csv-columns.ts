import type { z } from '@hono/zod-openapi';
import { type FieldTree, parseFields } from './query/fields';

/**
 * The columns of a list exported as CSV, read off the same field tree `fields=` is checked
 * against (the item's response schema): every leaf is a column named by its path
 * (`shippingAddress.city`), an object selected whole becomes its leaves, and a list of objects
 * gives one column per field of its items (`lines.sku`), whose cell joins the items' values.
 */
export function csvColumns(selectable: FieldTree, fields: string | undefined): string[] {
  const selection = fields === undefined || fields.trim() === '' ? selectable : parseFields(fields, selectable);
  return leaves(selection, selectable, '');
}

function leaves(selection: FieldTree, selectable: FieldTree, prefix: string): string[] {
  return Object.entries(selection).flatMap(([name, rule]) => {
    const path = `${prefix}${name}`;
    const nested = selectable[name];
    if (nested && nested !== true) return leaves(rule === true ? nested : rule, nested, `${path}.`);
    return [path];
  });
}

/** Items of a list, values of a list of objects joined with this. */
export const LIST_SEPARATOR = '; ';

/** The value of a column in one item: nested objects walked, a list's items' values joined. */
export function cellValue(item: unknown, path: string): unknown {
  return valueAt(item, path.split('.'));
}

function valueAt(value: unknown, segments: string[]): unknown {
  if (segments.length === 0 || value === null || value === undefined) return value;
  if (Array.isArray(value)) {
    // An item without the value keeps its place (an empty part), so the joined cells of one list
    // stay in step: the third sku goes with the third quantity.
    const parts = value.map((entry) => valueAt(entry, segments)).map((v) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v)));
    return parts.every((part) => part === '') ? '' : parts.join(LIST_SEPARATOR);
  }
  if (typeof value !== 'object') return undefined;
  const [head, ...rest] = segments;
  return valueAt((value as Record<string, unknown>)[head!], rest);
}

/** The item schema of a list response (`{ data: Item[], pagination }`), or undefined for any other response. */
export function listItemSchema(response: z.ZodType | undefined): z.ZodType | undefined {
  const shape = (response?._zod.def as { shape?: Record<string, z.ZodType> } | undefined)?.shape;
  if (!shape?.pagination || !shape.data) return undefined;
  const data = shape.data._zod.def as { type: string; element?: z.ZodType };
  return data.type === 'array' ? data.element : undefined;
}
