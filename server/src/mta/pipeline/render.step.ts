import { type TrackingPlan, trackHtml, UNSUBSCRIBE_PLACEHOLDER } from '../../lib/link-tracking.ts';
import { unsubscribeUrl } from '../../lib/unsubscribe-token.ts';

/**
 * Rendering: SendCloud's `%variable%` substitution. A recipient's `sub` values (stored on its row
 * as `vars`), the message's `pubsub` values (shared by everyone) and `section` blocks: a `sub`
 * value may name a section (`"%sec%": ["%sec_a%", …]`), whose text is then put in, itself with
 * variables substituted. Names that match nothing stay as they are, as SendCloud leaves them
 * (`%%user_defined_unsubscribe_link%%` among them: trackBody replaces it afterwards).
 */
export interface Personalisation {
  vars: Record<string, string | number> | null;
  section: Record<string, string> | null;
  pubsub: Record<string, string | number> | null;
}

const VARIABLE = /%[^%\s]{1,64}%/g;

export function hasVariables(text: string | null): boolean {
  if (!text) return false;
  VARIABLE.lastIndex = 0;
  return VARIABLE.test(text);
}

export function substitute(text: string, p: Personalisation, depth = 0): string {
  if (!text.includes('%')) return text;
  return text.replace(VARIABLE, (name) => {
    const own = p.vars?.[name];
    if (own !== undefined) {
      const value = String(own);
      // A sub value that names a section (or another variable) is expanded once more.
      return depth < 2 && value.includes('%') ? substitute(value, p, depth + 1) : value;
    }
    const section = p.section?.[name];
    if (section !== undefined) return depth < 2 ? substitute(section, p, depth + 1) : section;
    const shared = p.pubsub?.[name];
    if (shared !== undefined) return String(shared);
    return name;
  });
}

/** The subject with the account's AD mark (batch mail only), before or after it. */
export function markSubject(
  subject: string,
  adMark: { position: 'before' | 'after'; text: string } | null,
  emailType: 'trigger' | 'batch',
): string {
  if (!adMark || emailType !== 'batch' || !adMark.text) return subject;
  return adMark.position === 'before' ? `${adMark.text}${subject}` : `${subject}${adMark.text}`;
}

/**
 * Tracking and the custom unsubscribe link of one recipient's body, after variables: the click
 * redirect on links and the open pixel when the message's plan says so (trackHtml), and
 * `%%user_defined_unsubscribe_link%%` in html and plain replaced by the recipient's signed
 * unsubscribe URL. Nothing is done for a message with neither.
 */
export interface BodyTrackingKeys {
  trackingKey: Buffer;
  unsubscribeKey: Buffer;
  publicUrl: string;
}

export function trackBody(
  body: { html: string | null; plain: string | null },
  message: { accountId: number; tracking: TrackingPlan | null; unsubscribePlaceholder: boolean },
  recipient: { id: number; recipient: string },
  keys: BodyTrackingKeys,
): { html: string | null; plain: string | null } {
  if (!message.tracking && !message.unsubscribePlaceholder) return body;
  const who = { accountId: message.accountId, recipientId: recipient.id };
  let { html, plain } = body;
  if (html !== null && message.tracking) html = trackHtml(html, message.tracking, who, keys.trackingKey);
  if (message.unsubscribePlaceholder) {
    const url = unsubscribeUrl(keys.publicUrl, { ...who, email: recipient.recipient }, keys.unsubscribeKey);
    html = html?.replaceAll(UNSUBSCRIBE_PLACEHOLDER, url) ?? null;
    plain = plain?.replaceAll(UNSUBSCRIBE_PLACEHOLDER, url) ?? null;
  }
  return { html, plain };
}
