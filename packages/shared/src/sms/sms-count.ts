import { isGsm7, SMS_LIMITS, splitSms } from './sms-parts.ts';

/**
 * What one SMS costs as the carrier counts it: the whole text the handset receives (signature
 * included), its encoding, its length in that encoding's units and the parts it is cut into.
 * The count-test screen, the template form and the sender all count through `countSms`, so the
 * number a user is shown is the number that is billed.
 */
export type SmsEncoding = 'gsm7' | 'ucs2';
export type SmsRegion = 'domestic' | 'international';

export interface SmsCount {
  /** The text as sent: the signature in its place, then the content. */
  text: string;
  /** Length in the encoding's units: GSM septets (extension characters take 2) or UTF-16 units. */
  characters: number;
  parts: number;
  encoding: SmsEncoding;
  /** Units one part holds: 160/70 for a single SMS, 153/67 once the text is split. */
  perPart: number;
}

/**
 * Domestic SMS carry 【signature】 at the start; international ones `[signature] ` (the carrier's
 * own convention abroad, where 【】 would force UCS-2 on a Latin text).
 */
export function signedSmsText(
  content: string,
  signature?: string | null,
  region: SmsRegion = 'domestic',
): string {
  const sign = signature?.trim();
  if (!sign) return content;
  return region === 'international' ? `[${sign}] ${content}` : `【${sign}】${content}`;
}

export function countSms(
  content: string,
  signature?: string | null,
  region: SmsRegion = 'domestic',
): SmsCount {
  const text = signedSmsText(content, signature, region);
  const gsm = isGsm7(text);
  const limits = gsm ? SMS_LIMITS.gsm : SMS_LIMITS.ucs2;
  let characters = 0;
  for (const char of text) characters += gsm ? (GSM_DOUBLE.has(char) ? 2 : 1) : char.length;
  const parts = text === '' ? 0 : splitSms(text).parts.length;
  return {
    text,
    characters,
    parts,
    encoding: gsm ? 'gsm7' : 'ucs2',
    perPart: parts > 1 ? limits.part : limits.single,
  };
}

/** Characters of the GSM extension table, sent as escape + character. */
const GSM_DOUBLE = new Set('\f^{}\\[~]|€');
