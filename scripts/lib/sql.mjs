// Literal SQL for `wrangler d1 execute --file`: values are rendered, never interpolated raw.

/** A SQL literal for a JS value: strings are quoted with '' escaping; objects and arrays become JSON text. */
export function sqlValue(value) {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number' || typeof value === 'bigint') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new TypeError(`not a finite number: ${value}`);
    return String(value);
  }
  if (typeof value === 'object') return sqlString(JSON.stringify(value));
  return sqlString(String(value));
}

export function sqlString(text) {
  if (text.includes('\0')) throw new TypeError('SQL text must not contain NUL characters');
  return `'${text.replaceAll("'", "''")}'`;
}

/** A quoted identifier (`"name"`). */
export function sqlIdent(name) {
  return `"${String(name).replaceAll('"', '""')}"`;
}

/**
 * `INSERT [OR IGNORE] INTO table (cols) VALUES (...), (...);` statements for `rows` (objects keyed by
 * column name), `chunkSize` rows per statement so that every statement stays well under D1's 100 KB.
 */
export function insertStatements(table, rows, { orIgnore = false, chunkSize = 20 } = {}) {
  if (rows.length === 0) return [];
  const columns = Object.keys(rows[0]);
  const head = `INSERT ${orIgnore ? 'OR IGNORE ' : ''}INTO ${sqlIdent(table)} (${columns.map(sqlIdent).join(', ')}) VALUES`;
  const statements = [];
  for (let i = 0; i < rows.length; i += chunkSize) {
    const values = rows.slice(i, i + chunkSize).map((row) => `  (${columns.map((c) => sqlValue(row[c])).join(', ')})`);
    statements.push(`${head}\n${values.join(',\n')};`);
  }
  return statements;
}
