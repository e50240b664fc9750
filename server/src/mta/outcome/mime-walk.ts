/**
 * Just enough MIME (RFC 2045/2046) to read bounces: header fields, multipart splitting,
 * base64 and quoted-printable, charsets through TextDecoder (Node's ICU knows GBK, GB18030, Big5),
 * and encoded words in headers. Bounces are small and machine-written; this is not a general mail
 * parser, and anything it does not understand is kept as text rather than thrown on.
 */

export interface MimePart {
  /** Field names lower-cased; repeated fields keep every value in order. */
  headers: Map<string, string[]>;
  /** `type/subtype`, lower-cased; `text/plain` when absent. */
  contentType: string;
  params: Record<string, string>;
  /** Decoded body (transfer encoding and, for text, charset). */
  body: string;
  parts: MimePart[];
}

const MAX_DEPTH = 8;

export function parseMime(raw: Buffer | string, depth = 0): MimePart {
  const text = typeof raw === 'string' ? raw : raw.toString('latin1');
  const split = /\r?\n\r?\n/.exec(text);
  const headerText = split ? text.slice(0, split.index) : text;
  const rawBody = split ? text.slice(split.index + split[0].length) : '';
  const headers = parseHeaderBlock(headerText);
  const [contentType, params] = parseContentType(first(headers, 'content-type') ?? 'text/plain');
  const encoding = (first(headers, 'content-transfer-encoding') ?? '7bit').trim().toLowerCase();

  const part: MimePart = { headers, contentType, params, body: '', parts: [] };
  if (contentType.startsWith('multipart/') && params.boundary && depth < MAX_DEPTH) {
    part.parts = splitMultipart(rawBody, params.boundary).map((child) => parseMime(child, depth + 1));
    return part;
  }
  const bytes = decodeTransfer(rawBody, encoding);
  if (contentType === 'message/rfc822' && depth < MAX_DEPTH) {
    part.parts = [parseMime(bytes.toString('latin1'), depth + 1)];
  }
  part.body = decodeCharset(bytes, params.charset);
  return part;
}

/** Unfolds and splits a header block; values keep their raw (latin1) bytes until decoded. */
export function parseHeaderBlock(block: string): Map<string, string[]> {
  const headers = new Map<string, string[]>();
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    const list = headers.get(name);
    if (list) list.push(value);
    else headers.set(name, [value]);
  }
  return headers;
}

export function first(headers: Map<string, string[]>, name: string): string | undefined {
  return headers.get(name)?.[0];
}

/** Every part, depth first, the part itself included. */
export function* walk(part: MimePart): Generator<MimePart> {
  yield part;
  for (const child of part.parts) yield* walk(child);
}

/** A header value with RFC 2047 encoded words decoded and raw 8-bit bytes read as UTF-8. */
export function decodeHeader(value: string): string {
  const utf8 = Buffer.from(value, 'latin1').toString('utf8');
  return utf8
    .replace(/(=\?[^?]+\?[bqBQ]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(
      /=\?([^?*]+)(?:\*[^?]*)?\?([bqBQ])\?([^?]*)\?=/g,
      (_, charset: string, enc: string, data: string) => {
        const bytes =
          enc.toLowerCase() === 'b'
            ? Buffer.from(data, 'base64')
            : decodeQuotedPrintable(data.replace(/_/g, ' '));
        return decodeCharset(bytes, charset);
      },
    );
}

function parseContentType(value: string): [string, Record<string, string>] {
  const [type = 'text/plain', ...rest] = value.split(';');
  const params: Record<string, string> = {};
  for (const param of rest) {
    const eq = param.indexOf('=');
    if (eq < 0) continue;
    const key = param.slice(0, eq).trim().toLowerCase();
    params[key] = param
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
  }
  return [type.trim().toLowerCase() || 'text/plain', params];
}

function splitMultipart(body: string, boundary: string): string[] {
  const parts: string[] = [];
  const delimiter = `--${boundary}`;
  let current: string[] | null = null;
  for (const line of body.split(/\r?\n/)) {
    if (line.startsWith(delimiter)) {
      const closing = line.slice(delimiter.length).startsWith('--');
      if (current) parts.push(current.join('\r\n'));
      current = closing ? null : [];
      if (closing) break;
      continue;
    }
    current?.push(line);
  }
  if (current) parts.push(current.join('\r\n')); // no closing delimiter: keep what came
  return parts;
}

function decodeTransfer(body: string, encoding: string): Buffer {
  if (encoding === 'base64') return Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  return Buffer.from(body, 'latin1');
}

function decodeQuotedPrintable(text: string): Buffer {
  const unwrapped = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < unwrapped.length; i++) {
    const hex = unwrapped.slice(i + 1, i + 3);
    if (unwrapped[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(unwrapped.charCodeAt(i) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

function decodeCharset(bytes: Buffer, charset = 'utf-8'): string {
  const label = charset
    .trim()
    .toLowerCase()
    .replace(/^gb2312$/, 'gbk');
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    return bytes.toString('utf8'); // unknown charset label: the bytes are most likely UTF-8 or ASCII
  }
}
