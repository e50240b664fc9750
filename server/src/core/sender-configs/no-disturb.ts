import { minutesOf, type NoDisturbInput } from '@herald/shared';

/**
 * Do-not-disturb windows in wall-clock time. Accounts have no time zone setting yet, so every
 * account's windows are read in Asia/Shanghai (UTC+8, no daylight saving), the zone SendCloud's
 * console and its daily quotas use; the zone is a parameter so a per-account zone is a change of
 * the caller only. A window covers its start minute through the end of its end minute
 * (00:00–23:59 is the whole day) on its days: every day, weekdays 1 (Monday) to 7, or days 1–31
 * of the month. While one covers `now`, batch mail waits until the end of the window.
 */
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';

export type NoDisturbWindow = Pick<NoDisturbInput, 'cycle' | 'days' | 'start' | 'end'>;

interface WallClock {
  weekday: number;
  day: number;
  /** Milliseconds since local midnight. */
  msOfDay: number;
}

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      weekday: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

export function wallClock(now: number, timeZone: string = DEFAULT_TIME_ZONE): WallClock {
  const parts: Record<string, string> = {};
  for (const part of formatterOf(timeZone).formatToParts(now)) parts[part.type] = part.value;
  const ms = ((now % 1000) + 1000) % 1000;
  return {
    weekday: WEEKDAYS[parts.weekday ?? ''] ?? 0,
    day: Number(parts.day),
    msOfDay: ((Number(parts.hour) * 60 + Number(parts.minute)) * 60 + Number(parts.second)) * 1000 + ms,
  };
}

function coversDay(window: NoDisturbWindow, clock: WallClock): boolean {
  if (window.cycle === 'day') return true;
  return window.days.includes(window.cycle === 'week' ? clock.weekday : clock.day);
}

/** The end of the latest window covering `now`, or null when none does. */
export function noDisturbUntil(
  windows: readonly NoDisturbWindow[],
  now: number,
  timeZone: string = DEFAULT_TIME_ZONE,
): number | null {
  if (windows.length === 0) return null;
  const clock = wallClock(now, timeZone);
  let until: number | null = null;
  for (const window of windows) {
    const from = minutesOf(window.start) * 60_000;
    const to = (minutesOf(window.end) + 1) * 60_000;
    if (clock.msOfDay < from || clock.msOfDay >= to || !coversDay(window, clock)) continue;
    const end = now + (to - clock.msOfDay);
    if (until === null || end > until) until = end;
  }
  return until;
}
