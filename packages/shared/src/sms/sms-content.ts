import type { ErrorCode } from '../errors.ts';

/**
 * The content rules of an SMS template (product-spec §5), as pure functions the template schema
 * (form and server) and the send path share. Each returns the rule key of the first problem, so
 * the form and the server explain a refusal in the same words:
 *
 * - No brackets [ ] 【 】 ［ ］: carriers put the signature in 【】 (or [] abroad) and refuse a
 *   text that could pass for a second one. Round brackets are ordinary punctuation and allowed.
 * - No non-breaking spaces (U+00A0, U+2007, U+202F, U+FEFF): they look like spaces but break
 *   links and keyword filters. The ideographic space U+3000 is a normal (breaking) space of
 *   Chinese typesetting and is allowed.
 * - `%name%` placeholders: names of letters, digits and underscores (never Chinese), each with
 *   an example. A percent sign that does not enclose a name ("50% off") is plain text.
 * - Links start with http:// or https:// and stand apart: a space before and a space (or the
 *   end of the text) after, so the handset sees where the link ends.
 * - A marketing SMS ends with the reply-R opt-out text, nothing after it.
 */
export const SMS_CONTENT_MAX = 500;
export const SMS_TEMPLATE_NAME_MAX = 64;
export const SMS_VAR_VALUE_MAX = 32;
export const SMS_VAR_NAME_MAX = 32;
/** The opt-out a marketing SMS must end with: Chinese, or English for international messages. */
export const SMS_OPT_OUT_TEXTS = ['拒收请回复R', 'Reply R to unsubscribe'] as const;

export type SmsContentRule =
  | 'required'
  | 'smsContentLength'
  | 'smsContentNbsp'
  | 'smsContentBrackets'
  | 'smsVarNameChinese'
  | 'smsLinkScheme'
  | 'smsLinkSpaces'
  | 'smsMarketingOptOut';

const BRACKETS = /[[\]【】［］]/u;
const NO_BREAK_SPACES = /[\u00A0\u2007\u202F\uFEFF]/u;
/** A candidate placeholder: up to 32 letters (any script), digits or underscores between two %. */
const PLACEHOLDER = /%([\p{L}\p{N}_]{1,32})%/gu;
const VAR_NAME = /^[A-Za-z0-9_]+$/;
/** The characters a link may hold (RFC 3986, brackets excepted since content may not hold them). */
const LINK = /https?:\/\/[A-Za-z0-9\-._~:/?#@!$&'()*+,;=%]+/giu;
/** A scheme that is not http(s), or a www. address without one. */
const OTHER_SCHEME = /(?:^|[^A-Za-z])(?!https?:\/\/)[A-Za-z][A-Za-z0-9+.-]*:\/\//iu;
const BARE_WWW = /(?:^|[^/A-Za-z0-9.])www\.[A-Za-z0-9-]+\./iu;

export interface SmsPlaceholders {
  /** Valid variable names in order of first appearance. */
  names: string[];
  /** Placeholders whose names are not letters, digits and underscores (e.g. %姓名%). */
  invalid: string[];
}

export function smsPlaceholders(content: string): SmsPlaceholders {
  const names: string[] = [];
  const invalid: string[] = [];
  for (const match of content.matchAll(PLACEHOLDER)) {
    const name = match[1] as string;
    if (VAR_NAME.test(name)) {
      if (!names.includes(name)) names.push(name);
    } else if (!invalid.includes(name)) invalid.push(name);
  }
  return { names, invalid };
}

/** The links of a text, with where each starts and ends. */
export function smsLinks(content: string): { url: string; start: number; end: number }[] {
  return [...content.matchAll(LINK)].map((m) => ({
    url: m[0],
    start: m.index ?? 0,
    end: (m.index ?? 0) + m[0].length,
  }));
}

function linkProblem(content: string): SmsContentRule | null {
  if (OTHER_SCHEME.test(content) || BARE_WWW.test(content)) return 'smsLinkScheme';
  for (const link of smsLinks(content)) {
    if (content[link.start - 1] !== ' ') return 'smsLinkSpaces';
    if (link.end < content.length && content[link.end] !== ' ') return 'smsLinkSpaces';
  }
  return null;
}

/** The rules every text of a template obeys (SMS and voice content, MMS title and page text). */
export function smsTextProblem(content: string): SmsContentRule | null {
  if (NO_BREAK_SPACES.test(content)) return 'smsContentNbsp';
  if (BRACKETS.test(content)) return 'smsContentBrackets';
  if (smsPlaceholders(content).invalid.length > 0) return 'smsVarNameChinese';
  return linkProblem(content);
}

export function endsWithOptOut(content: string): boolean {
  return SMS_OPT_OUT_TEXTS.some((text) => content.endsWith(text));
}

/** The first rule an SMS template's content breaks, or null. */
export function smsContentProblem(
  content: string,
  smsType: 'code' | 'notice' | 'marketing',
): SmsContentRule | null {
  if (content.trim() === '') return 'required';
  if ([...content].length > SMS_CONTENT_MAX) return 'smsContentLength';
  const problem = smsTextProblem(content);
  if (problem) return problem;
  if (smsType === 'marketing' && !endsWithOptOut(content)) return 'smsMarketingOptOut';
  return null;
}

/** A variable's value (or example): at most 32 characters and no link (reference §11). */
export function smsVarValueProblem(value: string): 'SMS_VAR_TOO_LONG' | 'SMS_VAR_HAS_URL' | null {
  if ([...value].length > SMS_VAR_VALUE_MAX) return 'SMS_VAR_TOO_LONG';
  if (/https?:\/\/|www\./i.test(value)) return 'SMS_VAR_HAS_URL';
  return null;
}

/** The template's placeholders filled with `vars`; a placeholder without a value stays as it is. */
export function renderSmsTemplate(content: string, vars: Record<string, string | undefined>): string {
  return content.replace(PLACEHOLDER, (whole, name: string) => {
    const value = VAR_NAME.test(name) ? vars[name] : undefined;
    return value === undefined ? whole : value;
  });
}

export type SmsVariablesCheck =
  | { ok: true }
  | {
      ok: false;
      code: Extract<ErrorCode, 'SMS_VAR_TOO_LONG' | 'SMS_VAR_HAS_URL' | 'SMS_VAR_MISSING'>;
      params: { name: string };
    };

/**
 * Whether `vars` can fill `template` at send time: every placeholder has a value, and every value
 * is at most 32 characters without a link. The codes are the SMS API's 481-483.
 */
export function checkSmsVariables(
  template: { content: string },
  vars: Record<string, string | undefined>,
): SmsVariablesCheck {
  for (const [name, value] of Object.entries(vars)) {
    if (value === undefined) continue;
    const problem = smsVarValueProblem(value);
    if (problem) return { ok: false, code: problem, params: { name } };
  }
  for (const name of smsPlaceholders(template.content).names) {
    if (vars[name] === undefined || vars[name] === '') {
      return { ok: false, code: 'SMS_VAR_MISSING', params: { name } };
    }
  }
  return { ok: true };
}
