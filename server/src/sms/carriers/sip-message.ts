import { createHash, randomBytes } from 'node:crypto';

/**
 * SIP messages as the voice carrier writes and reads them, one per UDP datagram or one after the
 * other on a TCP connection (RFC 3261 §7, §18.3): a start line, headers, a blank line and a body
 * sized by Content-Length. Header names are matched without case and in their compact forms (`i`
 * for Call-ID…), since trunks use both. Digest answers to 401/407 challenges follow RFC 2617 with
 * MD5, with or without `qop=auth` (RFC 3261 §22.4).
 */
export interface SipMessage {
  /** A request's method; undefined for a response. */
  method: string | undefined;
  /** A request's Request-URI. */
  uri: string;
  /** A response's status; 0 for a request. */
  status: number;
  reason: string;
  headers: [string, string][];
  body: string;
}

/** How SIP messages travel to the trunk, as the Via header names it. */
export type SipTransport = 'UDP' | 'TCP';

const COMPACT: Record<string, string> = {
  i: 'call-id',
  f: 'from',
  t: 'to',
  v: 'via',
  m: 'contact',
  l: 'content-length',
  c: 'content-type',
};

export function parseSip(data: Buffer): SipMessage | undefined {
  const text = data.toString('utf8');
  const split = text.indexOf('\r\n\r\n');
  if (split < 0) return undefined;
  const [startLine = '', ...lines] = text.slice(0, split).split('\r\n');
  const headers: [string, string][] = [];
  for (const line of lines) {
    // A line starting with white space continues the header before it (folding).
    const last = headers.at(-1);
    if (/^[ \t]/.test(line) && last) last[1] += ` ${line.trim()}`;
    else {
      const colon = line.indexOf(':');
      if (colon > 0) headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
    }
  }
  const message = { headers, body: text.slice(split + 4) };
  const response = /^SIP\/2\.0 (\d{3}) ?(.*)$/.exec(startLine);
  if (response)
    return { ...message, method: undefined, uri: '', status: Number(response[1]), reason: response[2] ?? '' };
  const request = /^([A-Z]+) (\S+) SIP\/2\.0$/.exec(startLine);
  if (request) return { ...message, method: request[1], uri: request[2] ?? '', status: 0, reason: '' };
  return undefined;
}

/**
 * The messages on a stream transport (TCP): each ends where its Content-Length says (§18.3), so
 * the bytes are kept until a whole one is there. The CRLFs a peer sends to keep the connection
 * alive (RFC 5626 §4.4.1) are skipped; a message without Content-Length, or one far too large,
 * cannot be framed, and ends the stream.
 */
export class SipStream {
  private pending: Buffer = Buffer.alloc(0);

  /** The whole messages that `chunk` completes, in order; throws on a stream that cannot be framed. */
  push(chunk: Buffer): Buffer[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const messages: Buffer[] = [];
    for (;;) {
      let start = 0;
      while (this.pending[start] === 0x0d || this.pending[start] === 0x0a) start += 1;
      if (start > 0) this.pending = this.pending.subarray(start);
      const end = this.pending.indexOf('\r\n\r\n');
      if (end < 0) {
        if (this.pending.length > MAX_STREAM_MESSAGE) throw new Error('a SIP header section too large');
        return messages;
      }
      const head = this.pending.subarray(0, end).toString('latin1');
      const length = /^(?:content-length|l)[ \t]*:[ \t]*(\d+)/im.exec(head)?.[1];
      if (length === undefined) throw new Error('a SIP message on a stream without Content-Length');
      const size = end + 4 + Number(length);
      if (size > MAX_STREAM_MESSAGE) throw new Error('a SIP message too large');
      if (this.pending.length < size) return messages;
      messages.push(this.pending.subarray(0, size));
      this.pending = this.pending.subarray(size);
    }
  }
}

/** Far more than any message of a voice-code call (headers, an SDP answer). */
const MAX_STREAM_MESSAGE = 64 * 1024;

/** Every value of a header, in order. */
export function headerValues(message: SipMessage, name: string): string[] {
  const wanted = name.toLowerCase();
  return message.headers
    .filter(([key]) => {
      const lower = key.toLowerCase();
      return (COMPACT[lower] ?? lower) === wanted;
    })
    .map(([, value]) => value);
}

export function header(message: SipMessage, name: string): string | undefined {
  return headerValues(message, name)[0];
}

/** A request: the headers in the order given, then Content-Length and the body. */
export function formatRequest(method: string, uri: string, headers: [string, string][], body = ''): Buffer {
  return format(`${method} ${uri} SIP/2.0`, headers, body);
}

export function formatResponse(
  status: number,
  reason: string,
  headers: [string, string][],
  body = '',
): Buffer {
  return format(`SIP/2.0 ${status} ${reason}`, headers, body);
}

function format(startLine: string, headers: [string, string][], body: string): Buffer {
  const lines = [startLine, ...headers.map(([name, value]) => `${name}: ${value}`)];
  lines.push(`Content-Length: ${Buffer.byteLength(body)}`, '', body);
  return Buffer.from(lines.join('\r\n'));
}

/** The `tag` parameter of a From or To value. */
export function tagOf(value: string | undefined): string | undefined {
  return value ? /;\s*tag=([^;>\s]+)/i.exec(value)?.[1] : undefined;
}

/** The URI of a name-addr (`"x" <sip:a@b>;p`) or of a bare addr-spec. */
export function uriOf(value: string): string {
  const angled = /<([^>]*)>/.exec(value);
  return (angled ? angled[1] : value.split(';')[0])?.trim() ?? '';
}

/** The number of a CSeq value and its method. */
export function cseqOf(message: SipMessage): { number: number; method: string } {
  const [number = '0', method = ''] = (header(message, 'cseq') ?? '').split(/\s+/);
  return { number: Number(number), method };
}

/** A token fresh for each use: branches (after the RFC 3261 magic cookie), tags, Call-IDs. */
export function sipToken(bytes = 8): string {
  return randomBytes(bytes).toString('hex');
}

/** A Via branch that marks the request as RFC 3261's (§8.1.1.7). */
export function newBranch(): string {
  return `z9hG4bK${sipToken()}`;
}

/** The parameters of a `Digest realm="…", nonce="…", …` challenge. */
export function parseChallenge(value: string): Record<string, string> | undefined {
  const scheme = /^\s*Digest\s+/i.exec(value);
  if (!scheme) return undefined;
  const params: Record<string, string> = {};
  const pattern = /([a-z0-9-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]+))/gi;
  for (const match of value.slice(scheme[0].length).matchAll(pattern)) {
    params[(match[1] as string).toLowerCase()] =
      match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : (match[3] ?? '');
  }
  return params;
}

export interface DigestCredentials {
  username: string;
  password: string;
  method: string;
  uri: string;
}

/** The Authorization (or Proxy-Authorization) value answering a challenge, or undefined when it is not MD5. */
export function digestAnswer(
  challenge: Record<string, string>,
  credentials: DigestCredentials,
): string | undefined {
  const algorithm = challenge.algorithm ?? 'MD5';
  if (algorithm.toUpperCase() !== 'MD5') return undefined;
  const realm = challenge.realm ?? '';
  const nonce = challenge.nonce ?? '';
  const ha1 = md5(`${credentials.username}:${realm}:${credentials.password}`);
  const ha2 = md5(`${credentials.method}:${credentials.uri}`);
  const qops = (challenge.qop ?? '').split(',').map((q) => q.trim());
  const fields = [
    `username="${credentials.username}"`,
    `realm="${realm}"`,
    `nonce="${nonce}"`,
    `uri="${credentials.uri}"`,
  ];
  if (qops.includes('auth')) {
    const cnonce = sipToken();
    const nc = '00000001';
    fields.push(
      `response="${md5(`${ha1}:${nonce}:${nc}:${cnonce}:auth:${ha2}`)}"`,
      'qop=auth',
      `nc=${nc}`,
      `cnonce="${cnonce}"`,
    );
  } else fields.push(`response="${md5(`${ha1}:${nonce}:${ha2}`)}"`);
  fields.push('algorithm=MD5');
  if (challenge.opaque !== undefined) fields.push(`opaque="${challenge.opaque}"`);
  return `Digest ${fields.join(', ')}`;
}

function md5(text: string): string {
  return createHash('md5').update(text).digest('hex');
}
