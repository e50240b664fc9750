import {
  AppError,
  parseMobile,
  SMS_CONTACT_NAME_MAX,
  SMS_CONTACT_VAR_NAME,
  SMS_CONTACT_VARS_MAX,
  smsVarValueProblem,
} from '@herald/shared';

/**
 * What the rows of a contact file mean, whatever the format (one row = one line or spreadsheet
 * row, as cells):
 *
 *   phone, name, variable 1, …, variable 10
 *
 * The first row that is not blank is a header when its first cell holds no digit ("手机号",
 * "phone"): its third cell on name the variables, as template placeholders name them (letters,
 * digits, underscores; at most 10, none twice). Without a header the variables are `var1` to
 * `var10` by position. Numbers are read as the SMS API reads them (parseMobile: mainland without
 * +86, others with their country code) and kept in E.164. Blank rows are skipped and not counted;
 * every other row is a member, or a rejected line with its reason (the error report), or a number
 * seen earlier in the file.
 */
export type RowReason =
  | 'smsContactPhone'
  | 'smsContactName'
  | 'smsContactVarsTooMany'
  | 'smsContactVarValue'
  | 'smsContactDuplicateInFile'
  | 'smsContactAlreadyInList'
  | 'smsContactLineTooLong';

/** Rows in column arrays: cheap to hand from the reading thread to the writing one. */
export interface RowBatch {
  /** Of the file, when this batch was cut. */
  bytesRead: number;
  members: { line: number[]; phone: string[]; name: string[]; vars: (string | null)[] };
  rejected: { line: number[]; content: string[]; reason: RowReason[] };
}

const CONTENT_MAX = 200;

export function emptyBatch(): RowBatch {
  return {
    bytesRead: 0,
    members: { line: [], phone: [], name: [], vars: [] },
    rejected: { line: [], content: [], reason: [] },
  };
}

export function batchSize(batch: RowBatch): number {
  return batch.members.line.length + batch.rejected.line.length;
}

export class ContactRows {
  /** The variable names, once the first row has said whether it is a header. */
  varNames: string[] | null = null;
  private named = false;
  /** The most variables one row carried (names var1… of a file without a header). */
  private widest = 0;
  private readonly seen = new Set<number>();

  /** Reads one row into the batch; false when it was blank (or the header). */
  take(batch: RowBatch, line: number, cells: readonly string[], content: () => string): boolean {
    if (cells.every((cell) => cell.trim() === '')) return false;
    if (this.varNames === null && this.readHeader(cells)) return false;
    const reason = this.member(batch, line, cells);
    if (reason) reject(batch, line, content(), reason);
    return true;
  }

  /** A line the reader could not split (longer than it keeps). */
  tooLong(batch: RowBatch, line: number): void {
    reject(batch, line, '', 'smsContactLineTooLong');
  }

  /** The names of the variables the file gave its members. */
  usedNames(): string[] {
    return this.names(this.widest);
  }

  /** The names the file gives its variables, or var1… by position when it has no header. */
  private names(count: number): string[] {
    if (this.named) return this.varNames ?? [];
    return Array.from({ length: Math.min(count, SMS_CONTACT_VARS_MAX) }, (_, i) => `var${i + 1}`);
  }

  private readHeader(cells: readonly string[]): boolean {
    if (/\d/.test(cells[0] ?? '')) {
      this.varNames = [];
      return false;
    }
    const names = cells.slice(2).map((cell) => cell.trim());
    while (names.length > 0 && names[names.length - 1] === '') names.pop();
    const valid =
      names.length <= SMS_CONTACT_VARS_MAX &&
      names.every((name) => SMS_CONTACT_VAR_NAME.test(name)) &&
      new Set(names).size === names.length;
    if (!valid) throw new AppError('SMS_CONTACT_IMPORT_HEADER');
    this.varNames = names;
    this.named = true;
    return true;
  }

  private member(batch: RowBatch, line: number, cells: readonly string[]): RowReason | null {
    // A leading apostrophe is the spreadsheet's mark for "text", not part of the number.
    const parsed = parseMobile((cells[0] ?? '').replace(/^\s*'/, ''));
    if (!parsed) return 'smsContactPhone';
    const name = (cells[1] ?? '').trim();
    if (name.length > SMS_CONTACT_NAME_MAX) return 'smsContactName';
    let vars: string | null = null;
    if (cells.length > 2) {
      const values = cells.slice(2).map((cell) => cell.trim());
      while (values.length > 0 && values[values.length - 1] === '') values.pop();
      const limit = this.named ? (this.varNames?.length ?? 0) : SMS_CONTACT_VARS_MAX;
      if (values.length > limit) return 'smsContactVarsTooMany';
      const names = this.names(values.length);
      const object: Record<string, string> = {};
      for (const [i, value] of values.entries()) {
        if (value === '') continue;
        if (smsVarValueProblem(value)) return 'smsContactVarValue';
        object[names[i] as string] = value;
      }
      if (Object.keys(object).length > 0) vars = JSON.stringify(object);
      this.widest = Math.max(this.widest, values.length);
    }
    // E.164 digits fit a double exactly (15 digits at most): a number per entry, not a string.
    const key = Number(parsed.e164.slice(1));
    if (this.seen.has(key)) return 'smsContactDuplicateInFile';
    this.seen.add(key);
    const { members } = batch;
    members.line.push(line);
    members.phone.push(parsed.e164);
    members.name.push(name);
    members.vars.push(vars);
    return null;
  }
}

function reject(batch: RowBatch, line: number, content: string, reason: RowReason): void {
  batch.rejected.line.push(line);
  batch.rejected.content.push(content.length > CONTENT_MAX ? `${content.slice(0, CONTENT_MAX)}…` : content);
  batch.rejected.reason.push(reason);
}
