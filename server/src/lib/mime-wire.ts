import { isAscii } from 'node:buffer';

/**
 * What may go on the wire (RFC 5321 §4.5.3.1.6, RFC 5322 §2.1.1, RFC 6152, RFC 2045–2047): no
 * line longer than 998 octets, headers in 7-bit ASCII (Herald never relays with SMTPUTF8), and
 * 8-bit body bytes only to a server that offers 8BITMIME. `wireSafe` re-encodes only the parts of
 * a message that break one of these rules and returns the very same buffer when none does, which
 * is the case for nearly all mail (the check is two native scans).
 *
 * - A leaf body with a long line, or with 8-bit bytes when 8-bit is not allowed, is decoded from
 *   its Content-Transfer-Encoding and written again: quoted-printable for mostly-ASCII text,
 *   base64 for anything else. Multipart bodies are walked part by part, message/rfc822 entered.
 * - A header with raw 8-bit bytes becomes RFC 2047 encoded words (unstructured fields and the
 *   display names of address fields) or RFC 2231 parameters (filename="…" and the like); its
 *   charset is UTF-8 when the bytes are UTF-8, else the entity's own charset (or unknown-8bit).
 *   A long header line is folded at white space, or encoded as words when it cannot be.
 * - A non-ASCII address (the local part or domain itself) cannot be made 7-bit: that throws
 *   NonAsciiAddressError, which the submission server answers with 553 5.6.7.
 */
export const MAX_LINE_OCTETS = 998;

export class NonAsciiAddressError extends Error {
  override name = 'NonAsciiAddressError';
}

export interface WireOptions {
  /** The next hop offers 8BITMIME: 8-bit body bytes may stay as they are. */
  eightBit: boolean;
}

/** Headers and bodies Herald never rewrites: another party's signature, SendCloud's instructions. */
const UNTOUCHED = new Set(['dkim-signature', 'arc-seal', 'arc-message-signature', 'x-smtpapi']);
const ADDRESS_FIELDS = new Set([
  'from',
  'to',
  'cc',
  'bcc',
  'reply-to',
  'sender',
  'resent-from',
  'resent-to',
  'resent-cc',
  'resent-sender',
  'disposition-notification-to',
]);
const PARAMETER_FIELDS = new Set(['content-type', 'content-disposition']);
const HIGH = /[\x80-\xff]/;

/** Whether the message can go to the next hop as it is. */
export function isWireSafe(message: Buffer, options: WireOptions): boolean {
  if (hasLongLine(message)) return false;
  if (isAscii(message)) return true;
  return options.eightBit && isAscii(message.subarray(0, headerLength(message)));
}

/** The message, re-encoded where it must be for the next hop; the same buffer when it need not be. */
export function wireSafe(message: Buffer, options: WireOptions): Buffer {
  if (isWireSafe(message, options)) return message;
  const text = message.toString('latin1').replace(/\r?\n/g, '\r\n');
  return Buffer.from(entity(text, options, true, null), 'latin1');
}

export function hasLongLine(data: Buffer | string): boolean {
  const buffer = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
  let start = 0;
  for (let at = buffer.indexOf(0x0a); at >= 0; at = buffer.indexOf(0x0a, start)) {
    const end = at > start && buffer[at - 1] === 0x0d ? at - 1 : at;
    if (end - start > MAX_LINE_OCTETS) return true;
    start = at + 1;
  }
  return buffer.length - start > MAX_LINE_OCTETS;
}

function headerLength(message: Buffer): number {
  const crlf = message.indexOf('\r\n\r\n');
  if (crlf >= 0) return crlf + 2;
  const lf = message.indexOf('\n\n');
  return lf >= 0 ? lf + 1 : message.length;
}

interface Field {
  name: string;
  /** The whole field as it came, folding CRLFs included, without its final CRLF. */
  raw: string;
}

/** One MIME entity (latin1, CRLF): its header fields, then its body, each rewritten as needed. */
function entity(s: string, options: WireOptions, top: boolean, parentCharset: string | null): string {
  let head: string;
  let body: string;
  let separator = '\r\n';
  if (s.startsWith('\r\n')) {
    head = '';
    body = s.slice(2);
  } else {
    const end = s.indexOf('\r\n\r\n');
    if (end < 0) {
      head = s.endsWith('\r\n') ? s.slice(0, -2) : s;
      body = '';
      separator = '';
    } else {
      head = s.slice(0, end);
      body = s.slice(end + 4);
    }
  }
  const fields = parseFields(head);
  const value = (name: string) => unfold(fields.find((f) => f.name.toLowerCase() === name)?.raw ?? '');
  const contentType = afterColon(value('content-type'));
  const type = (contentType.split(';')[0] ?? '').trim().toLowerCase() || 'text/plain';
  const charset = param(contentType, 'charset') ?? parentCharset;
  const cte = afterColon(value('content-transfer-encoding')).trim().toLowerCase();

  let newBody = body;
  let newCte: string | null = null;
  const boundary = param(contentType, 'boundary');
  if (type.startsWith('multipart/') && boundary) {
    newBody = multipart(body, boundary, options, charset);
    if (!options.eightBit && (cte === '8bit' || cte === 'binary') && !HIGH.test(newBody)) newCte = '7bit';
  } else if (type === 'message/rfc822' || type === 'message/global') {
    newBody = body ? entity(body, options, false, null) : body;
    if (!options.eightBit && (cte === '8bit' || cte === 'binary') && !HIGH.test(newBody)) newCte = '7bit';
  } else if (hasLongLine(body) || (!options.eightBit && HIGH.test(body)) || cte === 'binary') {
    const data = decode(body, cte);
    const ascii = data.filter((b) => b >= 0x80).length * 3 < data.length;
    const text = type.startsWith('text/');
    newCte = text && ascii ? 'quoted-printable' : 'base64';
    let encoded = newCte === 'base64' ? base64Lines(data) : quotedPrintable(data);
    if (!body.endsWith('\r\n') && encoded.endsWith('\r\n')) encoded = encoded.slice(0, -2);
    newBody = encoded;
  }

  const out: string[] = [];
  let cteWritten = false;
  let hasMimeVersion = false;
  for (const field of fields) {
    const lower = field.name.toLowerCase();
    if (lower === 'mime-version') hasMimeVersion = true;
    if (lower === 'content-transfer-encoding' && newCte) {
      if (!cteWritten) out.push(`Content-Transfer-Encoding: ${newCte}`);
      cteWritten = true;
      continue;
    }
    out.push(fieldIsSafe(field) ? field.raw : rewriteField(field, charset));
  }
  if (newCte && !cteWritten) {
    if (top && !hasMimeVersion) out.push('MIME-Version: 1.0');
    out.push(`Content-Transfer-Encoding: ${newCte}`);
  }
  const newHead = out.length > 0 ? `${out.join('\r\n')}\r\n` : '';
  return `${newHead}${separator}${newBody}`;
}

function parseFields(head: string): Field[] {
  const fields: Field[] = [];
  if (!head) return fields;
  for (const line of head.split('\r\n')) {
    const last = fields[fields.length - 1];
    if (last && /^[ \t]/.test(line)) {
      last.raw += `\r\n${line}`;
    } else {
      const colon = line.indexOf(':');
      fields.push({ name: colon > 0 ? line.slice(0, colon).trim() : line, raw: line });
    }
  }
  return fields;
}

const unfold = (raw: string) => raw.replace(/\r\n(?=[ \t])/g, '');
const afterColon = (raw: string) => {
  const colon = raw.indexOf(':');
  return colon >= 0 ? raw.slice(colon + 1) : '';
};

function param(value: string, name: string): string | null {
  const match = new RegExp(`(?:^|;)\\s*${name}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]+))`, 'i').exec(
    value,
  );
  if (!match) return null;
  return (match[1] ?? match[2] ?? '').replace(/\\(.)/g, '$1');
}

/** The parts of a multipart body, each rewritten; preamble and epilogue only made harmless. */
function multipart(body: string, boundary: string, options: WireOptions, charset: string | null): string {
  const escaped = boundary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const delimiter = new RegExp(`(?:^|\\r\\n)--${escaped}(--)?[ \\t]*(?:\\r\\n|$)`, 'g');
  const marks: { start: number; end: number; close: boolean }[] = [];
  for (let m = delimiter.exec(body); m; m = delimiter.exec(body)) {
    marks.push({ start: m.index, end: m.index + m[0].length, close: m[1] === '--' });
    if (m[1] === '--') break;
  }
  if (marks.length === 0) return harmless(body, options);
  let out = harmless(body.slice(0, (marks[0] as { start: number }).start), options);
  marks.forEach((mark, i) => {
    const text = body.slice(mark.start, mark.end);
    out += text;
    if (mark.close) return;
    const next = marks[i + 1];
    const part = body.slice(mark.end, next ? next.start : body.length);
    out += entity(part, options, false, charset);
  });
  const last = marks[marks.length - 1] as { end: number };
  return out + harmless(body.slice(last.end), options);
}

/** Preamble and epilogue are for no reader: 8-bit bytes become '?', long lines are cut. */
function harmless(text: string, options: WireOptions): string {
  const clean = options.eightBit ? text : text.replace(/[\x80-\xff]/g, '?');
  if (!hasLongLine(clean)) return clean;
  return clean
    .split('\r\n')
    .map((line) => line.match(/[\s\S]{1,998}/g)?.join('\r\n') ?? '')
    .join('\r\n');
}

function decode(body: string, cte: string): Buffer {
  if (cte === 'base64') return Buffer.from(body, 'base64');
  if (cte === 'quoted-printable') {
    const soft = body.replace(/=[ \t]*\r\n/g, '');
    return Buffer.from(
      soft.replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
      'latin1',
    );
  }
  return Buffer.from(body, 'latin1');
}

/** RFC 2045 §6.7: CRLF stays a hard line break, lines are kept within 76 characters. */
export function quotedPrintable(data: Buffer): string {
  const lines = data.toString('latin1').split('\r\n');
  return lines
    .map((line) => {
      const pieces: string[] = [];
      for (let i = 0; i < line.length; i++) {
        const c = line.charCodeAt(i);
        const last = i === line.length - 1;
        if ((c >= 33 && c <= 126 && c !== 61) || ((c === 32 || c === 9) && !last)) {
          pieces.push(line[i] as string);
        } else {
          pieces.push(`=${c.toString(16).toUpperCase().padStart(2, '0')}`);
        }
      }
      let out = '';
      let width = 0;
      for (const piece of pieces) {
        if (width + piece.length > 75) {
          out += '=\r\n';
          width = 0;
        }
        out += piece;
        width += piece.length;
      }
      return out;
    })
    .join('\r\n');
}

function base64Lines(data: Buffer): string {
  const b64 = data.toString('base64');
  let out = '';
  for (let i = 0; i < b64.length; i += 76) out += `${b64.slice(i, i + 76)}\r\n`;
  return out;
}

function fieldIsSafe(field: Field): boolean {
  if (UNTOUCHED.has(field.name.toLowerCase())) return true;
  if (HIGH.test(field.raw)) return false;
  return !field.raw.split('\r\n').some((line) => line.length > MAX_LINE_OCTETS);
}

function rewriteField(field: Field, charset: string | null): string {
  const lower = field.name.toLowerCase();
  let value = unfold(afterColon(field.raw)).trim();
  if (HIGH.test(value)) {
    if (ADDRESS_FIELDS.has(lower)) value = addressList(value, charset);
    else if (PARAMETER_FIELDS.has(lower)) value = parameters(value, charset);
    if (HIGH.test(value)) value = encodedWords(value, charset);
  }
  const folded = fold(field.name, value);
  if (!folded.split('\r\n').some((line) => line.length > MAX_LINE_OCTETS)) return folded;
  return `${field.name}: ${encodedWords(value, charset)}`;
}

/** Folds at white space so lines stay near 78 characters (never past 998 unless a word is). */
function fold(name: string, value: string): string {
  const lines: string[] = [];
  let line = `${name}:`;
  for (const raw of value.replace(/\r\n/g, '').match(/[ \t]*[^ \t]+/g) ?? []) {
    const token = /^[ \t]/.test(raw) ? raw : ` ${raw}`;
    if (line.length + token.length > 78 && line.length > name.length + 1) {
      lines.push(line);
      line = token;
    } else {
      line += token;
    }
  }
  lines.push(line);
  return lines.join('\r\n');
}

function charsetOf(bytes: Buffer, declared: string | null): string {
  if (isUtf8(bytes)) return 'UTF-8';
  return declared && !/^(us-ascii|utf-?8)$/i.test(declared) ? declared : 'unknown-8bit';
}

function isUtf8(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** RFC 2047 B words of at most 45 octets each (75 characters), cut between UTF-8 characters. */
function encodedWords(value: string, declared: string | null): string {
  const bytes = Buffer.from(value, 'latin1');
  const charset = charsetOf(bytes, declared);
  const words: string[] = [];
  let start = 0;
  while (start < bytes.length) {
    let end = Math.min(start + 45, bytes.length);
    if (charset === 'UTF-8') {
      while (end < bytes.length && end > start + 1 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
    } else if (charset !== 'unknown-8bit') {
      end = bytes.length; // a multi-byte charset of unknown shape is never cut
    }
    words.push(`=?${charset}?B?${bytes.subarray(start, end).toString('base64')}?=`);
    start = end;
  }
  return words.join('\r\n ');
}

/** An address list whose display names are encoded words; a non-ASCII address itself throws. */
function addressList(value: string, charset: string | null): string {
  return splitAddresses(value)
    .map((entry) => {
      if (!HIGH.test(entry)) return entry.trim();
      const angle = /^([\s\S]*?)<([^<>]*)>([\s\S]*)$/.exec(entry);
      if (!angle) throw new NonAsciiAddressError(`non-ASCII address ${entry.trim()}`);
      const [, display = '', address = '', rest = ''] = angle;
      if (HIGH.test(address)) throw new NonAsciiAddressError(`non-ASCII address <${address}>`);
      let name = display.trim();
      if (name.startsWith('"') && name.endsWith('"') && name.length >= 2)
        name = name.slice(1, -1).replace(/\\(.)/g, '$1');
      const encodedName = HIGH.test(name) ? encodedWords(name, charset) : name;
      const tail = HIGH.test(rest) ? '' : rest.trim();
      return `${encodedName ? `${encodedName} ` : ''}<${address}>${tail ? ` ${tail}` : ''}`;
    })
    .join(',\r\n ');
}

/** Splits at commas outside quotes, angle brackets and comments. */
function splitAddresses(value: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  let angle = 0;
  let comment = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i] as string;
    if (c === '\\' && quoted) {
      current += c + (value[i + 1] ?? '');
      i++;
      continue;
    }
    if (c === '"' && comment === 0) quoted = !quoted;
    else if (!quoted && c === '<') angle++;
    else if (!quoted && c === '>') angle = Math.max(0, angle - 1);
    else if (!quoted && c === '(') comment++;
    else if (!quoted && c === ')') comment = Math.max(0, comment - 1);
    if (c === ',' && !quoted && angle === 0 && comment === 0) {
      if (current.trim()) out.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  if (current.trim()) out.push(current);
  return out;
}

/** `name="非ASCII"` parameters as RFC 2231 `name*=UTF-8''%E9…`. */
function parameters(value: string, declared: string | null): string {
  return value.replace(
    /(;\s*)([A-Za-z0-9_.-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;\s]*)/g,
    (whole, glue: string, name: string, raw: string) => {
      if (!HIGH.test(raw)) return whole;
      const text = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
      const bytes = Buffer.from(text, 'latin1');
      const charset = charsetOf(bytes, declared);
      let encoded = '';
      for (const b of bytes) {
        const c = String.fromCharCode(b);
        encoded += /[A-Za-z0-9!#$&+.^_`|~-]/.test(c)
          ? c
          : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
      }
      return `${glue}${name}*=${charset}''${encoded}`;
    },
  );
}
