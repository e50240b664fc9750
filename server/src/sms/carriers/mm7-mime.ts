import { randomBytes } from 'node:crypto';

/**
 * The MIME of MM7 (SOAP with Attachments): a `multipart/related` body whose root part is the
 * SOAP envelope and whose other part is the MMS itself, a `multipart/related` of its own (the
 * SMIL presentation first, then one part per text, image and sound). Bodies are binary: HTTP
 * carries 8-bit bytes, so media go as they are, without base64.
 */
export interface MimePart {
  /** Header names in lower case. */
  headers: Map<string, string>;
  body: Buffer;
}

export interface NewPart {
  /** Header lines in order; values must be one line of ASCII (the callers build them). */
  headers: [string, string][];
  body: Buffer;
}

const CRLF = '\r\n';

/** A multipart body and the boundary it was written with (one that none of its parts contains). */
export function buildMultipart(parts: NewPart[]): { boundary: string; body: Buffer } {
  let boundary = newBoundary();
  while (parts.some((p) => p.body.includes(boundary))) boundary = newBoundary();
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const head = part.headers.map(([name, value]) => `${name}: ${value}${CRLF}`).join('');
    chunks.push(Buffer.from(`--${boundary}${CRLF}${head}${CRLF}`, 'utf8'), part.body, Buffer.from(CRLF));
  }
  chunks.push(Buffer.from(`--${boundary}--${CRLF}`));
  return { boundary, body: Buffer.concat(chunks) };
}

/** The parts of a multipart body (the preamble and epilogue left out); [] when it has none. */
export function parseMultipart(body: Buffer, boundary: string): MimePart[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: MimePart[] = [];
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const afterDelimiter = at + delimiter.length;
    if (body.subarray(afterDelimiter, afterDelimiter + 2).toString() === '--') break;
    const start = body.indexOf(CRLF, afterDelimiter);
    if (start < 0) break;
    const next = body.indexOf(Buffer.from(`${CRLF}--${boundary}`), start);
    if (next < 0) break;
    parts.push(readPart(body.subarray(start + 2, next)));
    at = next + 2;
  }
  return parts;
}

function readPart(raw: Buffer): MimePart {
  const split = raw.indexOf(`${CRLF}${CRLF}`);
  const head = split < 0 ? raw.toString('latin1') : raw.subarray(0, split).toString('latin1');
  const body = split < 0 ? Buffer.alloc(0) : raw.subarray(split + 4);
  const headers = new Map<string, string>();
  // Folded lines (a continuation starts with white space) join their header.
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split(CRLF)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const encoding = headers.get('content-transfer-encoding')?.toLowerCase();
  return { headers, body: encoding === 'base64' ? Buffer.from(body.toString('latin1'), 'base64') : body };
}

/** `multipart/related; boundary="x"; start="<y>"` → its media type (lower case) and parameters. */
export function readContentType(value: string): { type: string; params: Map<string, string> } {
  const [type = '', ...rest] = value.split(';');
  const params = new Map<string, string>();
  for (const param of rest) {
    const eq = param.indexOf('=');
    if (eq < 0) continue;
    const raw = param.slice(eq + 1).trim();
    params.set(param.slice(0, eq).trim().toLowerCase(), raw.replace(/^"(.*)"$/, '$1'));
  }
  return { type: type.trim().toLowerCase(), params };
}

/**
 * The SOAP envelope of an HTTP body: the body itself when it is XML, the `start` part (or the
 * first) of a multipart/related one.
 */
export function soapPartOf(body: Buffer, contentType: string): string {
  const { type, params } = readContentType(contentType);
  const boundary = params.get('boundary');
  if (!type.startsWith('multipart/') || !boundary) return body.toString('utf8');
  const parts = parseMultipart(body, boundary);
  const start = params.get('start');
  const root = (start && parts.find((p) => p.headers.get('content-id') === start)) || parts[0];
  return root?.body.toString('utf8') ?? '';
}

function newBoundary(): string {
  return `herald-mm7-${randomBytes(12).toString('hex')}`;
}
