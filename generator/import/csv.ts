/**
 * RFC 4180 CSV, as the upstream writes it: comma separated, fields optionally quoted with
 * `"`, quotes doubled inside quoted fields, quoted fields may span lines. A quote inside a
 * field that does not start with one is literal text: the upstream reads its files with
 * Python's csv module, which keeps `a, "b"` as the field ` "b"`, and so do we.
 * Hand-written on purpose: the rows must be the ones the upstream's own reader sees, quirks and all.
 */
export interface CsvRow {
  /** 1-based line of the file where the row starts (the header is line 1). */
  line: number;
  cells: string[];
}

export interface CsvTable {
  header: string[];
  rows: CsvRow[];
}

export class CsvSyntaxError extends Error {
  readonly line: number;
  constructor(line: number, message: string) {
    super(`line ${line}: ${message}`);
    this.line = line;
  }
}

const QUOTE = 34;
const COMMA = 44;
const LF = 10;
const CR = 13;

export function parseCsv(text: string): CsvTable {
  const records: CsvRow[] = [];
  let cells: string[] = [];
  let line = 1;
  let rowLine = 1;
  let i = 0;
  const n = text.length;
  if (text.charCodeAt(0) === 0xfeff) i = 1;

  const endRow = () => {
    records.push({ line: rowLine, cells });
    cells = [];
  };

  while (i < n) {
    let c = text.charCodeAt(i);
    if (c === QUOTE) {
      const quoteLine = line;
      let value = '';
      let start = ++i;
      for (;;) {
        if (i >= n) throw new CsvSyntaxError(quoteLine, 'a quoted field is never closed');
        c = text.charCodeAt(i);
        if (c === QUOTE) {
          if (text.charCodeAt(i + 1) === QUOTE) {
            value += text.slice(start, i + 1);
            i += 2;
            start = i;
            continue;
          }
          value += text.slice(start, i);
          i++;
          break;
        }
        if (c === LF) line++;
        i++;
      }
      cells.push(value);
      c = text.charCodeAt(i);
      if (i < n && c !== COMMA && c !== LF && c !== CR) {
        throw new CsvSyntaxError(line, 'unexpected text after a closing quote');
      }
    } else {
      const start = i;
      while (i < n) {
        c = text.charCodeAt(i);
        if (c === COMMA || c === LF || c === CR) break;
        i++;
      }
      cells.push(text.slice(start, i));
    }
    if (i >= n) {
      endRow();
      break;
    }
    c = text.charCodeAt(i);
    if (c === COMMA) {
      i++;
      if (i >= n) {
        cells.push('');
        endRow();
      }
      continue;
    }
    // end of line: \n or \r\n
    if (c === CR) i++;
    if (text.charCodeAt(i) === LF) i++;
    line++;
    endRow();
    rowLine = line;
  }

  const [first, ...rows] = records;
  if (!first) throw new CsvSyntaxError(1, 'the file has no header row');
  return { header: first.cells, rows };
}
