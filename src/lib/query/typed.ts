import { z } from '@hono/zod-openapi';

/**
 * Typed query values. A query string is text; these read a text of the expected form as the number or
 * boolean it spells and then check it with a schema of that type. The OpenAPI document therefore gives
 * the parameter its real type (`integer`, `number`, `boolean`: a preprocess is documented by its output
 * schema), while a text of any other form (`abc`, `1e3`, ` 5`, `-1`, `yes`, `TRUE`, a repeated
 * parameter) reaches the typed schema unchanged and fails it: 400 naming the parameter, never coerced
 * (unlike `z.coerce`, which reads `''` as 0 and `'false'` as true).
 */
export function numberQuery<T extends z.ZodNumber>(form: RegExp, schema: T) {
  return z.preprocess((raw) => (typeof raw === 'string' && form.test(raw) ? Number(raw) : raw), schema);
}

/** `true` or `false`, exactly; anything else fails with `message`. */
export function booleanQuery(message: string) {
  return z.preprocess((raw) => (raw === 'true' ? true : raw === 'false' ? false : raw), z.boolean({ error: message }));
}
