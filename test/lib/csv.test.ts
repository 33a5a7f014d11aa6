import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, csvRecords, CsvSyntaxError, parseCsv } from '../../src/lib/csv';
import { cellValue, csvColumns } from '../../src/lib/csv-columns';

describe('CSV cells', () => {
  it('quotes what needs quoting and doubles quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(' padded')).toBe('" padded"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell({ size: 'M' })).toBe('"{""size"":""M""}"');
  });

  it('neutralises text a spreadsheet would run as a formula, and leaves numbers as numbers', () => {
    for (const formula of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) expect(csvCell(formula).replace(/^"/, '')).toMatch(/^'/);
    expect(csvCell('=HYPERLINK("http://evil","x")')).toBe('"\'=HYPERLINK(""http://evil"",""x"")"');
    expect(csvCell(-12.5)).toBe('-12.5');
    expect(csvCell(true)).toBe('true');
    expect(csvLine(['a', 1, null])).toBe('a,1,\r\n');
  });
});

describe('CSV columns', () => {
  const selectable = { id: true, total: true, shippingAddress: { city: true, country: true }, lines: { sku: true, quantity: true } } as const;

  it('are every leaf by default, and the leaves of what fields= selects', () => {
    expect(csvColumns(selectable, undefined)).toEqual(['id', 'total', 'shippingAddress.city', 'shippingAddress.country', 'lines.sku', 'lines.quantity']);
    expect(csvColumns(selectable, 'id,shipping_address,lines(sku)')).toEqual(['id', 'shippingAddress.city', 'shippingAddress.country', 'lines.sku']);
    expect(() => csvColumns(selectable, 'nope')).toThrow(/unknown field/);
  });

  it('walk nested objects and join the values of a list', () => {
    const order = {
      id: 'o1',
      shippingAddress: null,
      lines: [
        { sku: 'A', quantity: 2 },
        { sku: null, quantity: 1 },
        { sku: 'C', quantity: 3 },
      ],
    };
    expect(cellValue(order, 'shippingAddress.city')).toBeNull();
    // The second line has no sku: its place stays, in step with lines.quantity.
    expect(cellValue(order, 'lines.sku')).toBe('A; ; C');
    expect(cellValue(order, 'lines.quantity')).toBe('2; 1; 3');
  });
});

describe('reading CSV', () => {
  it('reads quoted cells with commas, quotes and line breaks, CRLF or LF, and says where each record starts', () => {
    const text = '\ufeffname,price\r\n"Mug, large",12.5\n"Say ""hi""","two\nlines"\n\n,\nlast,1';
    expect(parseCsv(text)).toEqual([
      { line: 1, cells: ['name', 'price'] },
      { line: 2, cells: ['Mug, large', '12.5'] },
      { line: 3, cells: ['Say "hi"', 'two\nlines'] },
      { line: 6, cells: ['', ''] },
      { line: 7, cells: ['last', '1'] },
    ]);
  });

  it('reads back what it writes, and names the line of an unclosed quote', () => {
    const rows = [
      ['=1+1', 'a,b', 'say "x"'],
      ['two\nlines', '', ' pad'],
    ];
    expect(parseCsv(rows.map(csvLine).join('')).map((r) => r.cells)).toEqual([
      ["'=1+1", 'a,b', 'say "x"'],
      ['two\nlines', '', ' pad'],
    ]);
    expect(() => parseCsv('a,b\n1,"open\n2,3')).toThrow(CsvSyntaxError);
    try {
      parseCsv('a,b\n1,"open\n2,3');
    } catch (error) {
      expect((error as CsvSyntaxError).line).toBe(2);
    }
  });

  it('reads record by record on demand: what is not asked for is not read', () => {
    const records = csvRecords('a,b\n1,2\n3,"never closed');
    expect(records.next().value).toEqual({ line: 1, cells: ['a', 'b'] });
    expect(records.next().value).toEqual({ line: 2, cells: ['1', '2'] });
    expect(() => records.next()).toThrow(CsvSyntaxError);
  });
});
