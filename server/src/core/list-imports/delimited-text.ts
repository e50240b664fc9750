/**
 * The records of a txt or csv list file, read piece by piece as the text arrives: RFC 4180
 * quoting (a quoted field may hold the delimiter, doubled quotes and line breaks), CRLF or LF line
 * ends. The delimiter is the one of comma, tab and semicolon the first lines use most (Excel
 * writes semicolons in some locales; a txt is often tab-separated), comma when they use none.
 *
 * A record longer than `maxLine` characters is reported as too long and skipped up to the next
 * line break without being kept, so a file of one endless line cannot fill the memory.
 */
export type TextRecord =
  | { line: number; cells: string[]; raw: string; tooLong?: undefined }
  | { line: number; tooLong: true };

const QUOTE = 34;
const LF = 10;
const CR = 13;
const CANDIDATES = [',', '\t', ';'] as const;
/** How much text is looked at before the delimiter is chosen without a line break in sight. */
const SNIFF_CHARS = 64 * 1024;

export class DelimitedText {
  private readonly maxLine: number;
  private buffer = '';
  private delimiter: number | undefined;
  /** The physical line the buffer starts on. */
  private line = 1;
  /** Inside a too-long record: drop text up to the next line break. */
  private skipping = false;

  constructor(options: { maxLine: number }) {
    this.maxLine = options.maxLine;
  }

  /** The records the text completes; the last, unfinished one waits for more. */
  push(text: string): TextRecord[] {
    this.buffer += text;
    return this.drain(false);
  }

  /** The records left once the text has all arrived. */
  end(): TextRecord[] {
    return this.drain(true);
  }

  private drain(final: boolean): TextRecord[] {
    const out: TextRecord[] = [];
    if (this.skipping && !this.skipLongRecord()) return out;
    if (this.delimiter === undefined) {
      if (!final && !this.buffer.includes('\n') && this.buffer.length < SNIFF_CHARS) return out;
      this.delimiter = sniffDelimiter(this.buffer);
    }
    this.scan(final, out);
    return out;
  }

  /** Drops the rest of a too-long record; true once its line break has been reached. */
  private skipLongRecord(): boolean {
    const end = this.buffer.indexOf('\n');
    if (end < 0) {
      this.buffer = '';
      return false;
    }
    this.buffer = this.buffer.slice(end + 1);
    this.line++;
    this.skipping = false;
    return true;
  }

  private scan(final: boolean, out: TextRecord[]): void {
    const buf = this.buffer;
    const n = buf.length;
    const delimiter = this.delimiter as number;
    let start = 0;
    let i = 0;
    let cells: string[] = [];
    let field = '';
    let fieldStart = 0;
    let inQuotes = false;
    let breaks = 0;
    const finish = (end: number, next: number) => {
      let last = field + buf.slice(fieldStart, end);
      if (last.charCodeAt(last.length - 1) === CR) last = last.slice(0, -1);
      cells.push(last);
      let raw = buf.slice(start, end);
      if (raw.charCodeAt(raw.length - 1) === CR) raw = raw.slice(0, -1);
      out.push(
        raw.length > this.maxLine ? { line: this.line, tooLong: true } : { line: this.line, cells, raw },
      );
      this.line += breaks + 1;
      breaks = 0;
      cells = [];
      field = '';
      start = next;
      fieldStart = next;
    };
    while (i < n) {
      const c = buf.charCodeAt(i);
      if (inQuotes) {
        if (c === QUOTE) {
          if (i + 1 >= n && !final) break;
          if (buf.charCodeAt(i + 1) === QUOTE) {
            field += buf.slice(fieldStart, i + 1);
            i += 2;
          } else {
            field += buf.slice(fieldStart, i);
            inQuotes = false;
            i++;
          }
          fieldStart = i;
          continue;
        }
        if (c === LF) breaks++;
        i++;
      } else if (c === delimiter) {
        cells.push(field + buf.slice(fieldStart, i));
        field = '';
        i++;
        fieldStart = i;
      } else if (c === LF) {
        finish(i, i + 1);
        i++;
      } else {
        if (c === QUOTE && i === fieldStart && field === '') {
          inQuotes = true;
          fieldStart = i + 1;
        }
        i++;
      }
    }
    if (final && start < n) {
      // An unclosed quote at the very end keeps what it holds.
      field += buf.slice(fieldStart, n);
      fieldStart = n;
      finish(n, n);
    }
    this.buffer = buf.slice(start);
    if (!final && this.buffer.length > this.maxLine) {
      out.push({ line: this.line, tooLong: true });
      this.skipping = true;
      this.buffer = '';
    }
  }
}

/** The candidate the first lines hold most of; comma when none. */
function sniffDelimiter(text: string): number {
  const sample = text.slice(0, SNIFF_CHARS).split('\n').slice(0, 5).join('\n');
  let best: string = CANDIDATES[0];
  let most = 0;
  for (const candidate of CANDIDATES) {
    const count = sample.split(candidate).length - 1;
    if (count > most) {
      best = candidate;
      most = count;
    }
  }
  return best.charCodeAt(0);
}
