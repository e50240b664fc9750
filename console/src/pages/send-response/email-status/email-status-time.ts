import { formatDateTime } from '../../../components/format-time.ts';

/** Days as the date inputs give them (`yyyy-MM-dd`, local time) and the range the server takes. */
const pad = (n: number) => String(n).padStart(2, '0');

export function dayString(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export function dayRange(start: string, end: string): { startTime: number; endTime: number } {
  const [sy, sm, sd] = start.split('-').map(Number);
  const [ey, em, ed] = end.split('-').map(Number);
  return {
    startTime: new Date(sy ?? 0, (sm ?? 1) - 1, sd ?? 1).getTime(),
    endTime: new Date(ey ?? 0, (em ?? 1) - 1, (ed ?? 1) + 1).getTime() - 1,
  };
}

export const when = (ms: number | null | undefined) => (ms ? formatDateTime(ms) : '—');
