import { and, asc, eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import { integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { Database } from '../../db/client';
import { categories, products, productSearchRows } from '../../db/schema';

/**
 * Full-text search of products on the FTS5 index `product_search` (migrations/0030_product_search.sql,
 * kept by triggers on products): each word the shopper typed is a prefix (`sat` finds "satchel"),
 * "quoted words" a phrase, every term required; diacritics are folded by the index's tokenizer on
 * both sides (`cafe` finds "Café"). A search reads the index's matches and joins those products
 * only, so what it reads grows with the matches, not with the catalogue.
 */

/** The FTS5 table, for building queries; created by its migration, not by drizzle-kit (it is not in the schema). */
export const productSearch = sqliteTable('product_search', {
  rowid: integer('rowid'),
  rank: real('rank'),
  name: text('name'),
});

/** Letters and digits of any script; everything else separates words, as the index's unicode61 tokenizer does. */
const WORD = /[\p{L}\p{N}]+/gu;
/** Terms past this many are dropped: a search box never needs more, and each costs a doclist read. */
const MAX_TERMS = 12;

/**
 * The FTS5 query for what a shopper typed, or null when it holds no word at all. Every term is
 * quoted (so nothing the shopper types is FTS5 syntax: `-`, `:`, `OR`, `NEAR` are just text).
 */
export function ftsQuery(input: string): string | null {
  const terms: string[] = [];
  const phrase = /"([^"]*)"?/g;
  let rest = input;
  for (const match of input.matchAll(phrase)) {
    const words = match[1]!.match(WORD);
    if (words?.length) terms.push(`"${words.join(' ')}"`);
    rest = rest.replace(match[0], ' ');
  }
  for (const word of rest.match(WORD) ?? []) terms.push(`"${word}"*`);
  return terms.length ? terms.slice(0, MAX_TERMS).join(' ') : null;
}

/** A query limited to one column of the index (`name : (...)`). */
const inColumn = (column: string, query: string) => `${column} : (${query})`;

const docOf = eq(productSearchRows.doc, productSearch.rowid);
const productOf = eq(products.id, productSearchRows.productId);

/** `MATCH` on the index, for a query from ftsQuery. */
export const matches = (query: string) => sql`${productSearch} MATCH ${query}`;

/**
 * Products whose text matches `q`, as a condition on products (a list that filters by `q` but is
 * ordered by one of its own columns uses the same index through it). No word in `q`: nothing matches.
 */
export function searchCondition(q: string): SQL {
  const query = ftsQuery(q);
  if (!query) return sql`0`;
  return sql`${products.id} IN (SELECT ${productSearchRows.productId} FROM ${productSearch} JOIN ${productSearchRows} ON ${productSearchRows.doc} = ${productSearch.rowid} WHERE ${matches(query)})`;
}

export interface SearchWindow {
  q: string;
  /** Every other condition on products: the other filters and what the caller may see. */
  where: SQL | undefined;
  /** ORDER BY on products' columns, or null for relevance (bm25 with the index's column weights). */
  orderBy: SQL[] | null;
  limit: number;
  offset: number;
}

/** A page of a search and its total: two statements for one D1 batch. */
export function searchPageQueries(db: Database, w: SearchWindow) {
  const query = ftsQuery(w.q) ?? '""';
  const orderBy = w.orderBy ?? [asc(productSearch.rank), asc(products.id)];
  // The index's matches joined to their products: the rows read are the matches, whatever the order.
  return {
    rows: db
      .select(getTableColumns(products))
      .from(productSearch)
      .innerJoin(productSearchRows, docOf)
      .innerJoin(products, productOf)
      .where(and(matches(query), w.where))
      .orderBy(...orderBy)
      .limit(w.limit)
      .offset(w.offset),
    total: db
      .select({ total: sql<number>`count(*)` })
      .from(productSearch)
      .innerJoin(productSearchRows, docOf)
      .innerJoin(products, productOf)
      .where(and(matches(query), w.where)),
  };
}

/** What a search box offers while the shopper types: product names, then category names. */
export const SUGGESTIONS = 10;

/**
 * Suggestions for a search box in one round trip: the best-ranked products whose name matches
 * every word typed as a prefix, among those the caller may see, and the categories whose name starts
 * with what was typed (or has a word that does).
 */
export async function suggest(db: Database, q: string, visible: SQL | undefined) {
  const query = ftsQuery(q);
  if (!query) return { products: [], categories: [] };
  const refColumns = { id: products.id, name: products.name, slug: products.slug };
  const prefix = q.trim().replace(/[%_\\]/g, (c) => `\\${c}`);
  const [found, cats] = await db.batch([
    db
      .select(refColumns)
      .from(productSearch)
      .innerJoin(productSearchRows, docOf)
      .innerJoin(products, productOf)
      .where(and(matches(inColumn('name', query)), visible))
      .orderBy(asc(productSearch.rank), asc(products.id))
      .limit(SUGGESTIONS),
    db
      .select({ id: categories.id, name: categories.name, slug: categories.slug })
      .from(categories)
      .where(sql`${categories.name} LIKE ${`${prefix}%`} ESCAPE '\\' OR ${categories.name} LIKE ${`% ${prefix}%`} ESCAPE '\\'`)
      .orderBy(asc(categories.name), asc(categories.id))
      .limit(SUGGESTIONS),
  ]);
  return { products: found, categories: cats };
}
