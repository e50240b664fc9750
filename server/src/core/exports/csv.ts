import { beijingDateTime } from '@herald/shared';

/** CSV text of an export: RFC 4180 quoting, CRLF line ends, times in Asia/Shanghai like the console. */

/** The byte order mark: without it Excel reads UTF-8 CSV as the local code page and garbles Chinese. */
export const BOM = '\uFEFF';

export type Cell = string | number | boolean | null | undefined;

function quote(cell: Cell): string {
  if (cell === null || cell === undefined) return '';
  const text = String(cell);
  // A leading =, +, - or @ would run as a formula in Excel: prefix a quote so it stays text.
  const safe = /^[=+\-@]/.test(text) && typeof cell === 'string' ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvLine(cells: readonly Cell[]): string {
  return `${cells.map(quote).join(',')}\r\n`;
}

/** `YYYY-MM-DD HH:mm:ss` in UTC+8, or empty. */
export function timeText(ms: number | string | null | undefined): string {
  if (ms === null || ms === undefined) return '';
  return beijingDateTime(Number(ms));
}
