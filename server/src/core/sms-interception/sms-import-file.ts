import {
  AppError,
  SMS_IMPORT_EXTENSIONS,
  SMS_IMPORT_INVALID_SHOWN,
  SMS_IMPORT_MAX_BYTES,
  SMS_IMPORT_MAX_LINES,
  type SmsImportResult,
} from '@herald/shared';

/** A file's entries, each once and in file order, with what was left out and why. */
export interface ReadImport extends Omit<SmsImportResult, 'imported' | 'existing'> {
  values: string[];
}

/** Header cells a first line may have; a phone file's first line without any digit is one too. */
const HEADER =
  /^(phone|mobile|number|phones|tel|手机|手机号|手机号码|号码|电话|keyword|keywords|关键字|关键词)$/i;

/**
 * Reads an uploaded txt or csv file of an interception list: an entry per line, or a line's first
 * column (cut at a comma, semicolon or tab), quotes and a spreadsheet's leading apostrophe
 * (which Herald's own CSV puts before a `+`) removed. `parse` answers the entry's normal form or
 * null for an invalid one; an entry repeated (in normal form) counts as a duplicate. The whole
 * file is checked before anything is written, so a refusal leaves the list as it was.
 */
export function readImportFile(
  file: { filename: string; content: string },
  parse: (cell: string) => string | null,
  options: { headerWithoutDigits?: boolean } = {},
): ReadImport {
  const extension = file.filename.toLowerCase().split('.').pop() ?? '';
  if (!(SMS_IMPORT_EXTENSIONS as readonly string[]).includes(extension))
    throw new AppError('SMS_IMPORT_FORMAT');
  if (Buffer.byteLength(file.content, 'utf8') > SMS_IMPORT_MAX_BYTES) {
    throw new AppError('SMS_IMPORT_TOO_LARGE', { max: SMS_IMPORT_MAX_BYTES / 1024 / 1024 });
  }
  const numbered = file.content
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\n|\r/)
    .map((text, index) => ({ text: text.trim(), line: index + 1 }))
    .filter((l) => l.text !== '');
  const first = numbered[0];
  if (first && isHeader(firstCell(first.text), options.headerWithoutDigits === true)) numbered.shift();
  if (numbered.length > SMS_IMPORT_MAX_LINES) {
    throw new AppError('SMS_IMPORT_TOO_MANY_LINES', { lines: numbered.length, max: SMS_IMPORT_MAX_LINES });
  }
  const seen = new Set<string>();
  const read: ReadImport = {
    values: [],
    lines: numbered.length,
    duplicates: 0,
    invalid: 0,
    invalidLines: [],
  };
  for (const { text, line } of numbered) {
    const value = parse(firstCell(text));
    if (value === null) {
      read.invalid += 1;
      if (read.invalidLines.length < SMS_IMPORT_INVALID_SHOWN)
        read.invalidLines.push({ line, text: text.slice(0, 64) });
    } else if (seen.has(value)) {
      read.duplicates += 1;
    } else {
      seen.add(value);
      read.values.push(value);
    }
  }
  return read;
}

function firstCell(line: string): string {
  const cell = (line.split(/[,;\t]/)[0] ?? '').trim();
  return cell
    .replace(/^"(.*)"$/, '$1')
    .trim()
    .replace(/^'/, '');
}

function isHeader(cell: string, withoutDigits: boolean): boolean {
  return HEADER.test(cell) || (withoutDigits && !/\d/.test(cell));
}
