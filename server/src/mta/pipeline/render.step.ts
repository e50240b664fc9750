/**
 * Rendering: SendCloud's `%variable%` substitution. A recipient's `sub` values (stored on its row
 * as `vars`), the message's `pubsub` values (shared by everyone) and `section` blocks: a `sub`
 * value may name a section (`"%sec%": ["%sec_a%", …]`), whose text is then put in, itself with
 * variables substituted. Names that match nothing stay as they are, as SendCloud leaves them.
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
