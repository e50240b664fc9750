import { resolveLang } from '@herald/shared/lang';
import i18next from 'i18next';

/**
 * Dates and times as the console's chosen language writes them, whatever the browser's own
 * locale: Chinese as product-spec's default `yyyy-MM-dd HH:mm:ss`, English as `Nov 26, 2026,
 * 17:30:05`; always the 24-hour clock, in the browser's time zone.
 */
const pad = (n: number) => String(n).padStart(2, '0');

const EN_DATE: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' };
const EN_TIME: Intl.DateTimeFormatOptions = {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
};

const english = () => resolveLang(i18next.language) === 'en';

export function formatDate(ms: number): string {
  const d = new Date(ms);
  if (english()) return new Intl.DateTimeFormat('en-US', EN_DATE).format(d);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export function formatTime(ms: number): string {
  const d = new Date(ms);
  if (english()) return new Intl.DateTimeFormat('en-US', EN_TIME).format(d);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export function formatDateTime(ms: number): string {
  return english() ? `${formatDate(ms)}, ${formatTime(ms)}` : `${formatDate(ms)} ${formatTime(ms)}`;
}
