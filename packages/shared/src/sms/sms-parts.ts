/**
 * How a text travels as SMS (3GPP TS 23.038/23.040, product-spec §9): in the GSM 7-bit alphabet
 * when every character has a place in it (data_coding 0), else as UCS-2 (data_coding 8). One
 * message holds 160 GSM septets or 70 UCS-2 units; a longer text is cut into parts of 153 or 67,
 * the rest of each part being the concatenation header (UDH) that lets the handset join them.
 * Characters of the GSM extension table take two septets, and a cut never separates an escape
 * from its character nor the halves of a UTF-16 surrogate pair.
 */
export type DataCoding = 0 | 8;

export interface SmsParts {
  dataCoding: DataCoding;
  parts: string[];
}

export const SMS_LIMITS = {
  gsm: { single: 160, part: 153 },
  ucs2: { single: 70, part: 67 },
} as const;

const GSM_BASIC = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);
const GSM_EXTENDED = new Set('\f^{}\\[~]|€');

export function isGsm7(text: string): boolean {
  for (const char of text) if (!GSM_BASIC.has(char) && !GSM_EXTENDED.has(char)) return false;
  return true;
}

/** Septets of one GSM character, or UTF-16 units of one character for UCS-2. */
function width(char: string, coding: DataCoding): number {
  if (coding === 0) return GSM_EXTENDED.has(char) ? 2 : 1;
  return char.length;
}

export function splitSms(text: string): SmsParts {
  const dataCoding: DataCoding = isGsm7(text) ? 0 : 8;
  const limits = dataCoding === 0 ? SMS_LIMITS.gsm : SMS_LIMITS.ucs2;
  const chars = [...text];
  const total = chars.reduce((sum, char) => sum + width(char, dataCoding), 0);
  if (total <= limits.single) return { dataCoding, parts: [text] };
  const parts: string[] = [];
  let current = '';
  let used = 0;
  for (const char of chars) {
    const w = width(char, dataCoding);
    if (used + w > limits.part) {
      parts.push(current);
      current = '';
      used = 0;
    }
    current += char;
    used += w;
  }
  if (current) parts.push(current);
  return { dataCoding, parts };
}

/** User Data Header for part `seq` (1-based) of `total`: IEI 0x00, 8-bit reference. */
export function concatenationUdh(ref: number, total: number, seq: number): Buffer {
  return Buffer.from([0x05, 0x00, 0x03, ref & 0xff, total, seq]);
}
