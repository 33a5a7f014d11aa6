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

/** One record of a CSV file: its cells, and the line of the file it starts on (1-based; the header is line 1). */
export interface CsvRecord {
  line: number;
  cells: string[];
}

export class CsvSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/**
 * Reads CSV as RFC 4180 writes it and spreadsheets export it: comma separated, fields quoted with
 * `"` (a quote inside doubled) may hold commas and line breaks, lines end in CRLF or LF, a UTF-8
 * BOM is skipped. Blank lines are left out. Kept here rather than taken from a library because
 * errors must name the line a record starts on, which the import reports.
 */
export function parseCsv(text: string): CsvRecord[] {
  return [...csvRecords(text)];
}

/**
 * parseCsv one record at a time: a reader that stops early (the import refusing a file at its
 * first impossible product) reads no further, and records it does not keep are not held.
 */
export function* csvRecords(text: string): Generator<CsvRecord, void, undefined> {
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else {
        if (ch === '\n') line++;
        cell += ch;
      }
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === ',') {
      cells.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      cells.push(cell);
      if (!blank(cells)) yield { line: start, cells };
      cells = [];
      cell = '';
      line++;
      start = line;
    } else cell += ch;
  }
  if (quoted) throw new CsvSyntaxError(`a quoted field opened on line ${start} is never closed`, start);
  if (cell !== '' || cells.length) {
    cells.push(cell);
    if (!blank(cells)) yield { line: start, cells };
  }
}

const blank = (cells: string[]) => cells.length === 1 && cells[0] === '';
