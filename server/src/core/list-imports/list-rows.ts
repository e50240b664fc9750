import { AppError, type ValidationKey } from '@herald/shared';
import type { RowRules } from './row-rules.ts';

/**
 * What the rows of a list file mean, whatever the format (one row = one line or spreadsheet
 * row, as cells) and whatever the list holds (row-rules.ts: a phone, an email address):
 *
 *   key, name, variable 1, …, variable 10
 *
 * The first row that is not blank is a header when its first cell is not like a key ("手机号",
 * "email"): its third cell on name the variables (at most 10, none twice). Without a header the
 * variables are `var1` to `var10` by position. Blank rows are skipped and not counted; every
 * other row is a member, or a rejected line with its reason (the error report), or a key seen
 * earlier in the file.
 */

/** Rows in column arrays: cheap to hand from the reading thread to the writing one. */
export interface RowBatch {
  /** Of the file, when this batch was cut. */
  bytesRead: number;
  members: { line: number[]; key: string[]; name: string[]; vars: (string | null)[] };
  rejected: { line: number[]; content: string[]; reason: ValidationKey[] };
}

const CONTENT_MAX = 200;

export function emptyBatch(): RowBatch {
  return {
    bytesRead: 0,
    members: { line: [], key: [], name: [], vars: [] },
    rejected: { line: [], content: [], reason: [] },
  };
}

export function batchSize(batch: RowBatch): number {
  return batch.members.line.length + batch.rejected.line.length;
}

export class ListRows {
  /** The variable names, once the first row has said whether it is a header. */
  varNames: string[] | null = null;
  private named = false;
  /** The most variables one row carried (names var1… of a file without a header). */
  private widest = 0;
  private readonly seen = new Set<string | number>();
  private readonly rules: RowRules;

  constructor(rules: RowRules) {
    this.rules = rules;
  }

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
    reject(batch, line, '', 'listImportLineTooLong');
  }

  /** The names of the variables the file gave its members. */
  usedNames(): string[] {
    return this.names(this.widest);
  }

  /** The names the file gives its variables, or var1… by position when it has no header. */
  private names(count: number): string[] {
    if (this.named) return this.varNames ?? [];
    return Array.from({ length: Math.min(count, this.rules.varsMax) }, (_, i) => `var${i + 1}`);
  }

  private readHeader(cells: readonly string[]): boolean {
    if (this.rules.looksLikeKey(cells[0] ?? '')) {
      this.varNames = [];
      return false;
    }
    const names = cells.slice(2).map((cell) => this.rules.varName(cell));
    while (names.length > 0 && names[names.length - 1] === '') names.pop();
    const valid =
      names.length <= this.rules.varsMax &&
      names.every((name) => this.rules.varNamePattern.test(name)) &&
      new Set(names).size === names.length;
    if (!valid) throw new AppError(this.rules.headerError);
    this.varNames = names;
    this.named = true;
    return true;
  }

  private member(batch: RowBatch, line: number, cells: readonly string[]): ValidationKey | null {
    const { rules } = this;
    // A leading apostrophe is the spreadsheet's mark for "text", not part of the value.
    const key = rules.key((cells[0] ?? '').replace(/^\s*'/, ''));
    if (key === null) return rules.reasons.key;
    const name = (cells[1] ?? '').trim();
    if (name.length > rules.nameMax) return rules.reasons.name;
    let vars: string | null = null;
    if (cells.length > 2) {
      const values = cells.slice(2).map((cell) => cell.trim());
      while (values.length > 0 && values[values.length - 1] === '') values.pop();
      const limit = this.named ? (this.varNames?.length ?? 0) : rules.varsMax;
      if (values.length > limit) return rules.reasons.varsTooMany;
      const names = this.names(values.length);
      const object: Record<string, string> = {};
      for (const [i, value] of values.entries()) {
        if (value === '') continue;
        if (!rules.varValueOk(value)) return rules.reasons.varValue;
        object[names[i] as string] = value;
      }
      if (Object.keys(object).length > 0) vars = JSON.stringify(object);
      this.widest = Math.max(this.widest, values.length);
    }
    const seenAs = rules.dedupeKey(key);
    if (this.seen.has(seenAs)) return rules.reasons.duplicateInFile;
    this.seen.add(seenAs);
    const { members } = batch;
    members.line.push(line);
    members.key.push(key);
    members.name.push(name);
    members.vars.push(vars);
    return null;
  }
}

function reject(batch: RowBatch, line: number, content: string, reason: ValidationKey): void {
  batch.rejected.line.push(line);
  batch.rejected.content.push(content.length > CONTENT_MAX ? `${content.slice(0, CONTENT_MAX)}…` : content);
  batch.rejected.reason.push(reason);
}
