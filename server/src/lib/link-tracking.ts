import { clickToken, openToken } from './tracking-token.ts';

/**
 * What the delivery pipeline does to a recipient's HTML when its API_USER (or the message's
 * X-SMTPAPI filters) turn tracking on: http(s) links in `<a href>` go through the click
 * redirect, and a 1×1 pixel goes before `</body>`. Links are left alone when they are not
 * http(s) (mailto:, tel:, the unsubscribe placeholder) or when their tag carries `data-no-track`
 * (or SendCloud-style `sc-no-track`). The plan is worked out once per message; only the tokens
 * are per recipient.
 */
export interface TrackingPlan {
  open: boolean;
  click: boolean;
  /** Base of the pixel and of the click URLs: the account's default tracking domain or the platform's. */
  openBase: string;
  clickBase: string;
}

export const UNSUBSCRIBE_PLACEHOLDER = '%%user_defined_unsubscribe_link%%';
export const NO_TRACK_ATTRIBUTES = ['data-no-track', 'sc-no-track'];

const ANCHOR = /<a\b[^>]*>/gi;
const HREF = /(\shref\s*=\s*)(["'])\s*(https?:\/\/[^"']*?)\s*\2/i;
const NO_TRACK = new RegExp(`\\s(?:${NO_TRACK_ATTRIBUTES.join('|')})(?=[\\s=/>])`, 'i');

export function openUrl(base: string, accountId: number, recipientId: number, key: Buffer): string {
  return `${base}/t/o/${openToken({ accountId, recipientId }, key)}.gif`;
}

export function clickUrl(
  base: string,
  accountId: number,
  recipientId: number,
  url: string,
  key: Buffer,
): string {
  return `${base}/t/c/${clickToken({ accountId, recipientId, url }, key)}`;
}

export function trackHtml(
  html: string,
  plan: TrackingPlan,
  who: { accountId: number; recipientId: number },
  key: Buffer,
): string {
  let out = html;
  if (plan.click && out.includes('href')) {
    out = out.replace(ANCHOR, (tag) => {
      if (NO_TRACK.test(tag)) return tag;
      const m = HREF.exec(tag);
      if (!m) return tag;
      const url = decodeEntities(m[3] ?? '');
      const tracked = clickUrl(plan.clickBase, who.accountId, who.recipientId, url, key);
      return tag.replace(HREF, `${m[1]}${m[2]}${tracked}${m[2]}`);
    });
  }
  if (plan.open) {
    const pixel = `<img src="${openUrl(plan.openBase, who.accountId, who.recipientId, key)}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0" />`;
    const end = Math.max(out.lastIndexOf('</body>'), out.lastIndexOf('</BODY>'));
    out = end >= 0 ? `${out.slice(0, end)}${pixel}${out.slice(end)}` : `${out}${pixel}`;
  }
  return out;
}

/** An href as written in HTML (`&amp;` and numeric references) back to the URL it stands for. */
function decodeEntities(value: string): string {
  if (!value.includes('&')) return value;
  return value
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&amp;/gi, '&');
}
