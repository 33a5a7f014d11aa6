import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { pagination } from '../lib/envelope';
import { type AnyFilters, type ListQueryConfig, listQuerySchema, MAX_LIMIT, type ParsedListQuery } from '../lib/query';
import { fieldProblems, parameterError } from '../lib/validation';

/** A list query parsed by the same schema as the API's list endpoint; a bad parameter is its 400. */
export function parseList<F extends AnyFilters>(config: ListQueryConfig<F>, raw: Record<string, string>): ParsedListQuery<F> {
  const parsed = listQuerySchema(config).safeParse(raw);
  if (!parsed.success) throw parameterError(fieldProblems(parsed.error, 'query'), 'query');
  return parsed.data as ParsedListQuery<F>;
}

/**
 * A list page's query from its URL (page, sort and the resource's declared filters, as the API
 * takes them). Empty form fields are dropped; `fixed` adds what the page sets itself.
 */
export function listQuery<F extends AnyFilters>(c: Context<AppEnv>, config: ListQueryConfig<F>, fixed: Record<string, string> = {}) {
  const raw: Record<string, string> = { limit: '20' };
  for (const [name, value] of new URL(c.req.url).searchParams) if (value.trim() !== '') raw[name] = value.trim();
  return { query: parseList(config, { ...raw, ...fixed }), values: raw };
}

/** The first page of the largest size, for a select's options (roles, brands, categories). */
export const firstPage = <F extends AnyFilters>(config: ListQueryConfig<F>, filters: Record<string, string> = {}) => parseList(config, { limit: String(MAX_LIMIT), ...filters });

export const pageOf = (query: { page: number; limit: number }, total: number) => pagination(query.page, query.limit, total);
