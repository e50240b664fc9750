/**
 * RFC 6376 §3.4 "relaxed" canonicalisation of headers and body, written for one purpose: signing
 * the messages Herald builds. Messages are handled as latin1 strings so every byte maps to one
 * char and 8-bit bodies (UTF-8 or not) hash exactly as they are sent.
 *
 * Line endings: SMTP carries CRLF, and that is what a verifier hashes. Input with bare LF is read
 * as if every LF were CRLF, so the signature matches the message once it is normalised to CRLF
 * (`toCrlf`), which is what the delivery step sends.
 */

export interface HeaderField {
  /** Name as written, e.g. `Subject`. */
  name: string;
  /** The whole field as written, folded lines included, without the final line break. */
  raw: string;
}

export interface SplitMessage {
  headers: HeaderField[];
  /** Body as latin1 text, after the blank line; empty when there is none. */
  body: string;
}

/** Bare LF (and only LF) becomes CRLF; existing CRLF are kept. */
export function toCrlf(message: Buffer): Buffer {
  if (!message.includes(0x0a)) return message;
  return Buffer.from(message.toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1');
}

/** Splits at the first empty line into header fields (unfolded lines kept together) and body. */
export function splitMessage(message: Buffer): SplitMessage {
  const { headers, body } = splitPieces([message]);
  return { headers, body: Buffer.concat(body).toString('latin1') };
}

/**
 * The same split of a message held as pieces (a recipient's copy: its own header block and
 * parts, and slices of the submitted message every copy shares): the header fields, and the
 * body as views on the pieces, so a large body is never copied to be hashed. Only the lines up
 * to the blank one are looked at.
 */
export function splitPieces(message: readonly Uint8Array[]): { headers: HeaderField[]; body: Buffer[] } {
  const pieces = message.map(asBuffer);
  const end = headerEnd(pieces);
  const headerText = Buffer.concat(slicePieces(pieces, 0, end.fields)).toString('latin1');
  const headers: HeaderField[] = [];
  if (end.fields > 0) {
    for (const line of headerText.split(/\r?\n/)) {
      const last = headers.at(-1);
      if ((line.startsWith(' ') || line.startsWith('\t')) && last) {
        last.raw += `\r\n${line}`;
        continue;
      }
      const colon = line.indexOf(':');
      if (colon <= 0) continue; // not a header field; nothing a verifier could select either
      headers.push({ name: line.slice(0, colon).trim(), raw: line });
    }
  }
  return { headers, body: slicePieces(pieces, end.body, Number.POSITIVE_INFINITY) };
}

/** Where the body starts: just after the blank line (the end, when there is none). */
export function bodyOffset(message: readonly Uint8Array[]): number {
  return headerEnd(message.map(asBuffer)).body;
}

/**
 * Where the header fields end (before the line break of the last one) and the body starts
 * (after the blank line): the first line that is empty or a lone CR. A message that starts with
 * one has no header fields; one without any is all header fields.
 */
function headerEnd(pieces: readonly Buffer[]): { fields: number; body: number } {
  let offset = 0;
  let lineStart = 0;
  /** Length of the line break before `lineStart` (1 for a bare LF, 2 for CRLF). */
  let breakLength = 0;
  let previous = -1;
  for (const piece of pieces) {
    for (let at = piece.indexOf(0x0a); at >= 0; at = piece.indexOf(0x0a, at + 1)) {
      const lf = offset + at;
      const before = at > 0 ? piece[at - 1] : previous;
      const length = lf - lineStart;
      if (length === 0 || (length === 1 && before === 0x0d)) {
        return { fields: lineStart === 0 ? 0 : lineStart - breakLength, body: lf + 1 };
      }
      breakLength = before === 0x0d ? 2 : 1;
      lineStart = lf + 1;
    }
    offset += piece.length;
    if (piece.length > 0) previous = piece[piece.length - 1] as number;
  }
  return { fields: offset, body: offset };
}

/** Views on the bytes from `from` to `to` of the pieces taken as one message. */
function slicePieces(pieces: readonly Buffer[], from: number, to: number): Buffer[] {
  const out: Buffer[] = [];
  let offset = 0;
  for (const piece of pieces) {
    const start = Math.max(from - offset, 0);
    const end = Math.min(to - offset, piece.length);
    if (start < end) out.push(start === 0 && end === piece.length ? piece : piece.subarray(start, end));
    offset += piece.length;
    if (offset >= to) break;
  }
  return out;
}

/**
 * Relaxed header canonicalisation: lower-case name, unfold, runs of WSP to one SP, no WSP at the
 * ends of the value or around the colon. Returned without the trailing CRLF.
 */
export function relaxedHeader(raw: string): string {
  const colon = raw.indexOf(':');
  const name = raw
    .slice(0, colon)
    .replace(/[ \t]+$/, '')
    .toLowerCase();
  const value = raw
    .slice(colon + 1)
    .replace(/\r?\n/g, '')
    .replace(/[ \t]+/g, ' ')
    .replace(/^ | $/g, ''); // not trim(): in latin1 text byte 0xA0 would count as a space
  return `${name}:${value}`;
}

/**
 * Relaxed body canonicalisation: runs of WSP within a line to one SP, no WSP at line ends, no
 * empty lines at the end; a non-empty body ends with exactly one CRLF, an empty one is empty.
 */
export function relaxedBody(body: string): string {
  const out: Uint8Array[] = [];
  const canonical = new RelaxedBody((chunk) => out.push(chunk));
  canonical.write(Buffer.from(body, 'latin1'));
  canonical.end();
  return Buffer.concat(out).toString('latin1');
}

const SP = 0x20;
const HT = 0x09;
const CR = 0x0d;
const LF = 0x0a;
const CRLF = Buffer.from('\r\n');
const PENDING = [Buffer.from(' '), Buffer.from('\r'), Buffer.from(' \r')];
/** WSP that canonicalisation changes: a tab, a run of spaces, a space ending a line. */
const NOT_CANONICAL = [Buffer.from('\t'), Buffer.from('  '), Buffer.from(' \r'), Buffer.from(' \n')];

/**
 * The relaxed body canonicalisation as a stream: the body is written in chunks (the pieces of a
 * recipient's copy) and comes out as chunks for the hash, most of them views on the input. A run
 * of lines that is canonical already (CRLF ends, single spaces between words, no tab), which is
 * nearly all of a real body (base64 above all), passes as one view; only other WSP, bare line
 * ends and the end of the body are handled byte by byte.
 * Line ends are read as canonicalize.ts reads them everywhere: LF, with a CR before it belonging
 * to it; a CR elsewhere is text.
 */
export class RelaxedBody {
  /** Line breaks read but not yet written: trailing empty lines are dropped at the end. */
  private breaks = 0;
  /** A run of WSP read and not yet written: dropped at a line end, one SP before more text. */
  private space = false;
  /** A CR read and not yet written: part of the line end if LF follows, text otherwise. */
  private cr = false;
  private written = false;

  private readonly emit: (chunk: Uint8Array) => void;

  constructor(emit: (chunk: Uint8Array) => void) {
    this.emit = emit;
  }

  write(bytes: Uint8Array): void {
    const chunk = asBuffer(bytes);
    /** Where each WSP that is not canonical as it stands comes next (see NOT_CANONICAL). */
    const next = NOT_CANONICAL.map(() => -1);
    let i = 0;
    while (i < chunk.length) {
      const byte = chunk[i] as number;
      if (byte === SP || byte === HT) {
        if (this.cr) this.flushPending();
        this.space = true;
        i++;
      } else if (byte === CR) {
        if (this.cr) this.flushPending();
        this.cr = true;
        i++;
      } else if (byte === LF) {
        this.space = false;
        this.cr = false;
        this.breaks++;
        i++;
      } else {
        let limit = chunk.length;
        NOT_CANONICAL.forEach((needle, n) => {
          if ((next[n] as number) < i && next[n] !== chunk.length) {
            const at = chunk.indexOf(needle, i);
            next[n] = at < 0 ? chunk.length : at;
          }
          limit = Math.min(limit, next[n] as number);
        });
        const end = cleanEnd(chunk, i, limit);
        this.flushPending();
        this.text(chunk.subarray(i, end));
        i = end;
      }
    }
  }

  end(): void {
    if (this.cr) this.flushPending();
    if (this.written) this.emit(CRLF);
  }

  /** Text: the line breaks held back go first. */
  private content(bytes: Uint8Array): void {
    for (; this.breaks > 0; this.breaks--) this.emit(CRLF);
    this.emit(bytes);
    this.written = true;
  }

  /** Clean text that may end in line breaks: those are held back, they may be trailing ones. */
  private text(bytes: Uint8Array): void {
    let end = bytes.length;
    let held = 0;
    while (end >= 2 && bytes[end - 1] === LF && bytes[end - 2] === CR) {
      end -= 2;
      held++;
    }
    if (end > 0) this.content(end === bytes.length ? bytes : bytes.subarray(0, end));
    this.breaks += held;
  }

  private flushPending(): void {
    if (!this.space && !this.cr) return;
    this.content(PENDING[(this.space ? 1 : 0) + (this.cr ? 2 : 0) - 1] as Uint8Array);
    this.space = false;
    this.cr = false;
  }
}

/** A Buffer view (Buffer's indexOf is a native scan; a plain Uint8Array's is not), never a copy. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * How far from `start` (a text byte) the chunk can pass as it is, up to `limit` (the next WSP
 * that is not canonical): to the first bare LF, and short of a CR or spaces that end it (what
 * follows them, here or in the next chunk, decides what they become).
 */
function cleanEnd(chunk: Buffer, start: number, limit: number): number {
  let end = limit;
  for (let at = chunk.indexOf(LF, start); at >= 0 && at < limit; at = chunk.indexOf(LF, at + 1)) {
    if (chunk[at - 1] !== CR) {
      end = at;
      break;
    }
  }
  if (end === chunk.length && chunk[end - 1] === CR) end--;
  while (chunk[end - 1] === SP) end--;
  return end;
}
