import { AppError } from '@herald/shared';
import { parseXsmtpapiHeader, type Xsmtpapi } from './xsmtpapi.ts';

/** What the accept path needs from a submitted message; the body itself is kept as it came. */
export interface ParsedMime {
  from: string | null;
  fromName: string | null;
  to: string[];
  cc: string[];
  subject: string | null;
  xsmtpapi: Xsmtpapi | undefined;
  /** The message to deliver: the submitted bytes minus its Bcc and X-SMTPAPI headers. */
  body: Buffer;
}

interface RawHeader {
  name: string;
  value: string;
  start: number;
  end: number;
}

const DROPPED = new Set(['bcc', 'x-smtpapi']);

/**
 * A minimal header reader: Herald reads From, To, Cc, Subject and X-SMTPAPI and leaves the rest
 * of the message untouched for delivery (its signature-relevant bytes included). X-SMTPAPI must
 * be the last header, as SendCloud requires, so a relay cannot have appended it after the fact.
 */
export function parseMime(mime: Buffer): ParsedMime {
  const headerEnd = findHeaderEnd(mime);
  const head = mime.subarray(0, headerEnd).toString('latin1');
  const headers = splitHeaders(head);
  const get = (name: string) => headers.find((h) => h.name === name)?.value;

  let xsmtpapi: Xsmtpapi | undefined;
  const xIndex = headers.findIndex((h) => h.name === 'x-smtpapi');
  if (xIndex >= 0) {
    if (xIndex !== headers.length - 1) {
      throw new AppError('SEND_XSMTPAPI_INVALID', { reason: 'X-SMTPAPI must be the last header' });
    }
    // Some clients wrap the value in RFC 2047 encoded words (a mail library encoding every header it
    // does not know); the words hold the same base64 or JSON. Raw 8-bit JSON is read as UTF-8.
    const raw = headers[xIndex]?.value ?? '';
    xsmtpapi = parseXsmtpapiHeader(
      /=\?[^?]+\?[BbQq]\?/.test(raw) ? decodeWords(raw) : Buffer.from(raw, 'latin1').toString('utf8'),
    );
  }

  const fromHeader = get('from');
  const from = fromHeader ? (addressesIn(fromHeader)[0] ?? null) : null;
  const fromName = fromHeader ? nameIn(fromHeader) : null;

  const kept: Buffer[] = [];
  let cursor = 0;
  for (const header of headers) {
    if (!DROPPED.has(header.name)) continue;
    kept.push(mime.subarray(cursor, header.start));
    cursor = header.end;
  }
  kept.push(mime.subarray(cursor));
  return {
    from,
    fromName,
    to: addressesIn(get('to') ?? ''),
    cc: addressesIn(get('cc') ?? ''),
    subject: get('subject') !== undefined ? decodeWords(get('subject') ?? '').trim() : null,
    xsmtpapi,
    body: kept.length === 1 ? mime : Buffer.concat(kept),
  };
}

function findHeaderEnd(mime: Buffer): number {
  const crlf = mime.indexOf('\r\n\r\n');
  const lf = mime.indexOf('\n\n');
  if (crlf >= 0 && (lf < 0 || crlf < lf)) return crlf + 2;
  if (lf >= 0) return lf + 1;
  return mime.length;
}

/** Headers with their byte ranges (latin1 keeps one char per byte), continuation lines unfolded. */
function splitHeaders(head: string): RawHeader[] {
  const headers: RawHeader[] = [];
  const lines = /[^\n]*\n|[^\n]+$/g;
  let match: RegExpExecArray | null = lines.exec(head);
  while (match) {
    const line = match[0];
    const start = match.index;
    const end = start + line.length;
    const last = headers[headers.length - 1];
    if ((line.startsWith(' ') || line.startsWith('\t')) && last) {
      last.value += ` ${line.trim()}`;
      last.end = end;
    } else {
      const colon = line.indexOf(':');
      if (colon > 0) {
        headers.push({
          name: line.slice(0, colon).trim().toLowerCase(),
          value: line.slice(colon + 1).trim(),
          start,
          end,
        });
      }
    }
    match = lines.exec(head);
  }
  return headers;
}

/** Addresses of an address header: `<a@b>` forms, else bare tokens with an @. */
export function addressesIn(value: string): string[] {
  const out: string[] = [];
  const withoutQuoted = value.replace(/"(?:[^"\\]|\\.)*"/g, '');
  for (const part of withoutQuoted.split(',')) {
    const angle = /<([^<>\s]+)>/.exec(part);
    const address =
      angle?.[1] ??
      part
        .trim()
        .split(/\s+/)
        .find((token) => token.includes('@'));
    if (address) out.push(address);
  }
  return out;
}

function nameIn(value: string): string | null {
  const lt = value.indexOf('<');
  if (lt <= 0) return null;
  const name = decodeWords(value.slice(0, lt).trim().replace(/^"|"$/g, '')).trim();
  return name || null;
}

/** RFC 2047 encoded words (`=?utf-8?B?...?=`, `=?utf-8?Q?...?=`) to text. */
export function decodeWords(value: string): string {
  const bytes = (text: string) => Buffer.from(text, 'latin1').toString('utf8');
  const decoded = value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(
      /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g,
      (_whole, charset: string, encoding: string, text: string) => {
        const buffer =
          encoding.toUpperCase() === 'B'
            ? Buffer.from(text, 'base64')
            : Buffer.from(
                text
                  .replace(/_/g, ' ')
                  .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) =>
                    String.fromCharCode(Number.parseInt(hex, 16)),
                  ),
                'latin1',
              );
        try {
          return new TextDecoder(charset.toLowerCase()).decode(buffer);
        } catch {
          return buffer.toString('utf8');
        }
      },
    );
  return /[\x80-\xff]/.test(decoded) && !/=\?/.test(value) ? bytes(decoded) : decoded;
}
