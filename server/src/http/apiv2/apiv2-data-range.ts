import { AppError, EMAIL_STATUS_SPAN_MAX_MS } from '@herald/shared';

/**
 * The date filters of SendCloud's data calls (reference §1): `days` (1 = today, 2 = today and
 * yesterday, ...) or `startDate`/`endDate` as `yyyy-MM-dd`, whole days in the server's time zone
 * (as apiv2-time.ts formats them). Also `start`/`limit` paging (limit 0–100, default 100).
 */
const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function invalid(field: string): AppError {
  return new AppError('COMMON_VALIDATION_FAILED', {}, [{ field, message: 'invalid' }]);
}

function dayStart(value: string, field: string): number {
  const m = DATE.exec(value.trim());
  if (!m) throw invalid(field);
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (d.getMonth() !== Number(m[2]) - 1) throw invalid(field);
  return d.getTime();
}

/** The range asked for, or null when the call names none. */
export function dataRange(
  fields: Record<string, string>,
  now = Date.now(),
): { from: number; to: number } | null {
  if (fields.days !== undefined && fields.days !== '') {
    const days = Number(fields.days);
    if (!Number.isInteger(days) || days < 1) throw invalid('days');
    const today = new Date(now);
    const midnight = new Date(today.getFullYear(), today.getMonth(), today.getDate()).getTime();
    return { from: midnight - (days - 1) * DAY_MS, to: now };
  }
  if (fields.startDate || fields.endDate) {
    if (!fields.startDate) throw invalid('startDate');
    if (!fields.endDate) throw invalid('endDate');
    const from = dayStart(fields.startDate, 'startDate');
    const to = dayStart(fields.endDate, 'endDate') + DAY_MS - 1;
    if (to < from) throw invalid('endDate');
    return { from, to };
  }
  return null;
}

/** data/emailStatus: a range of at most one month (SendCloud: 30 days), the last 30 days when none is named. */
export function monthRange(fields: Record<string, string>, now = Date.now()): { from: number; to: number } {
  const range = dataRange(fields, now) ?? dataRange({ days: '30' }, now);
  if (!range) throw invalid('days');
  if (range.to - range.from > EMAIL_STATUS_SPAN_MAX_MS) throw new AppError('EMAIL_STATUS_SPAN_TOO_LONG');
  return range;
}

export function paging(fields: Record<string, string>): { start: number; limit: number } {
  const whole = (value: string | undefined, fallback: number, max: number) => {
    const n = Number(value);
    return value === undefined || value === '' || !Number.isInteger(n) || n < 0 ? fallback : Math.min(n, max);
  };
  return { start: whole(fields.start, 0, Number.MAX_SAFE_INTEGER), limit: whole(fields.limit, 100, 100) };
}

/** A `;`-separated parameter (commas tolerated). */
export function listParam(value: string | undefined): string[] {
  return (value ?? '')
    .split(/[;,]/)
    .map((v) => v.trim())
    .filter(Boolean);
}

export function idListParam(value: string | undefined, field: string): number[] {
  return listParam(value).map((v) => {
    const n = Number(v);
    if (!Number.isSafeInteger(n) || n <= 0) throw invalid(field);
    return n;
  });
}
