/**
 * The one clock customers see and count by: Beijing time (Asia/Shanghai), UTC+8 all year with no
 * daylight saving, the zone of SendCloud's API, of quotas, statistics days, bills and exports.
 * A fixed offset rather than Intl: the server, the workers and the console must agree whatever
 * zone their machines run in.
 */
export const BEIJING_OFFSET_MS = 8 * 3_600_000;

/** An instant's Beijing wall clock: a Date whose UTC fields (getUTCDate, toISOString…) read it. */
export function beijingClock(at: number): Date {
  return new Date(at + BEIJING_OFFSET_MS);
}

/** `yyyy-MM-dd HH:mm:ss` in Beijing time: SendCloud's API times and the exports' columns. */
export function beijingDateTime(at: number): string {
  return beijingClock(at).toISOString().slice(0, 19).replace('T', ' ');
}

const DAY_MS = 86_400_000;
/** The Beijing day last asked for: hot paths (every event, every send) ask about today again and again. */
let lastDay = { start: Number.NaN, name: '' };

/** The Beijing calendar day (yyyy-MM-dd) of an instant. */
export function beijingDay(at: number): string {
  if (at >= lastDay.start && at < lastDay.start + DAY_MS) return lastDay.name;
  const local = at + BEIJING_OFFSET_MS;
  const start = Math.floor(local / DAY_MS) * DAY_MS - BEIJING_OFFSET_MS;
  const name = new Date(local).toISOString().slice(0, 10);
  // A moment outside the Date range has no day name to keep.
  if (Number.isFinite(start)) lastDay = { start, name };
  return name;
}
