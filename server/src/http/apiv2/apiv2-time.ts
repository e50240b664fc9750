/**
 * SendCloud's response timestamps: `yyyy-MM-dd HH:mm:ss` in the server's local time zone (the
 * reference §1), which is what SendCloud's clients parse. Set TZ on the Herald host to choose it.
 */
export function sendCloudTime(ms: number | null | undefined): string | null {
  if (ms === null || ms === undefined) return null;
  const d = new Date(Number(ms));
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}
