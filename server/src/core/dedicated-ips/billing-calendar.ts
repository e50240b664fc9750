import { BEIJING_OFFSET_MS } from '@herald/shared';

/**
 * Beijing calendar months for the dedicated IPs' monthly fees: a month is "YYYY-MM", its days are
 * Beijing days (days since 1970-01-01 at UTC+8), and a purchase is active on the days from the one
 * it started on up to, not including, the one it ends on.
 */
const DAY_MS = 86_400_000;

export function beijingDay(at: number): number {
  return Math.floor((at + BEIJING_OFFSET_MS) / DAY_MS);
}

export function monthKeyOf(at: number): string {
  return new Date(at + BEIJING_OFFSET_MS).toISOString().slice(0, 7);
}

function parse(month: string): { year: number; month: number } {
  return { year: Number(month.slice(0, 4)), month: Number(month.slice(5, 7)) };
}

function key(year: number, month: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}`;
}

export function nextMonth(month: string): string {
  const m = parse(month);
  return m.month === 12 ? key(m.year + 1, 1) : key(m.year, m.month + 1);
}

export function previousMonth(month: string): string {
  const m = parse(month);
  return m.month === 1 ? key(m.year - 1, 12) : key(m.year, m.month - 1);
}

/** The month's first Beijing day and its number of days. */
export function monthDays(month: string): { first: number; days: number } {
  const m = parse(month);
  const first = Date.UTC(m.year, m.month - 1, 1) / DAY_MS;
  return { first, days: Date.UTC(m.year, m.month, 1) / DAY_MS - first };
}

/** How many days of `month` a purchase active from `startsAt` until `endsAt` was active. */
export function activeDaysIn(month: string, startsAt: number, endsAt: number): number {
  const { first, days } = monthDays(month);
  const from = Math.max(first, beijingDay(startsAt));
  const until = Math.min(first + days, beijingDay(endsAt));
  return Math.max(0, until - from);
}

/** The instant `months` calendar months after `at` in Beijing time (the 31st becomes the month's last day). */
export function addMonths(at: number, months: number): number {
  const local = new Date(at + BEIJING_OFFSET_MS);
  const total = local.getUTCMonth() + months;
  const year = local.getUTCFullYear() + Math.floor(total / 12);
  const month = total % 12;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const shifted = new Date(local);
  shifted.setUTCFullYear(year, month, Math.min(local.getUTCDate(), last));
  return shifted.getTime() - BEIJING_OFFSET_MS;
}
