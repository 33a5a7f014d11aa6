/**
 * CSV as RFC 4180 writes it (comma, CRLF, double quotes doubled) and as spreadsheets read it
 * safely: a text cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return would be taken
 * for a formula by Excel, LibreOffice and Google Sheets (CSV injection), so it is prefixed with `'`,
 * which they show as text. Numbers and booleans are written as they are: they cannot run anything.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/** One cell: null and undefined are empty, objects are JSON, text is neutralised and quoted as needed. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One line of cells, with its CRLF. */
export function csvLine(values: unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
