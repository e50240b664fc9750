import { smsVarValueProblem } from '@herald/shared';

/**
 * What a gateway submit's text must be (issue 17): a customer's system sends finished text, so
 * Herald checks it against what the account had reviewed rather than filling a template.
 *
 * - The signature is 【…】 at the very start or the very end (spaces around the text ignored), and
 *   must be one of the account's passed domestic signatures.
 * - The rest must match, as a whole, a passed domestic SMS template of that signature: its text
 *   character for character (case and punctuation included), each `%name%` standing for 1-32
 *   characters that hold no link (the API's rule for a variable's value). Nothing may come before
 *   or after. When several templates match, the one with the longest fixed text wins (the most
 *   specific), then the lowest id.
 */
export interface SignedText {
  sign: string;
  body: string;
}

const SIGN_FIRST = /^【([^【】]{1,30})】([\s\S]*)$/u;
const SIGN_LAST = /^([\s\S]*?)【([^【】]{1,30})】$/u;

export function splitSignature(text: string): SignedText | null {
  const trimmed = text.trim();
  const first = SIGN_FIRST.exec(trimmed);
  if (first) return { sign: (first[1] as string).trim(), body: (first[2] as string).trim() };
  const last = SIGN_LAST.exec(trimmed);
  if (last) return { sign: (last[2] as string).trim(), body: (last[1] as string).trim() };
  return null;
}

export interface CompiledTemplate {
  id: number;
  signName: string;
  pattern: RegExp;
  /** Characters of fixed text: the more, the more specific. */
  fixed: number;
}

const PLACEHOLDER = /%([A-Za-z0-9_]{1,32})%/gu;

export function compileTemplate(template: {
  id: number;
  content: string;
  signName: string;
}): CompiledTemplate {
  let source = '';
  let fixed = 0;
  let last = 0;
  for (const match of template.content.matchAll(PLACEHOLDER)) {
    const literal = template.content.slice(last, match.index);
    source += escapeRegExp(literal);
    fixed += literal.length;
    source += '([\\s\\S]{1,32}?)';
    last = (match.index ?? 0) + match[0].length;
  }
  const tail = template.content.slice(last);
  source += escapeRegExp(tail);
  fixed += tail.length;
  return { id: template.id, signName: template.signName, pattern: new RegExp(`^${source}$`, 'u'), fixed };
}

/** The template `body` fills, among those of `sign`, or undefined. */
export function matchTemplate(
  templates: CompiledTemplate[],
  sign: string,
  body: string,
): CompiledTemplate | undefined {
  let best: CompiledTemplate | undefined;
  for (const template of templates) {
    if (template.signName !== sign) continue;
    const match = template.pattern.exec(body);
    if (!match) continue;
    if (match.slice(1).some((value) => smsVarValueProblem(value ?? '') !== null)) continue;
    if (!best || template.fixed > best.fixed) best = template;
  }
  return best;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
