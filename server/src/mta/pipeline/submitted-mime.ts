import { UNSUBSCRIBE_PLACEHOLDER } from '../../lib/link-tracking.ts';
import { decodeHeader } from '../outcome/mime-walk.ts';
import { inSharedMemory } from './message-pieces.ts';
import { hasVariables } from './render.step.ts';
import { decodeTransfer, type TransferEncoding, transferEncodingOf } from './transfer-encoding.ts';

/**
 * The structure of a message submitted over SMTP, read once when the pipeline loads the message
 * and kept with it: byte ranges of its header fields and of the text parts Herald may rewrite per
 * recipient (mime-rewrite.ts), with their text decoded. Everything else (attachments, non-text
 * parts, parts in a charset other than UTF-8 or ASCII, nested messages) is only a range of bytes
 * that every recipient's copy reuses as it is. Nothing here throws on odd input: what the reader
 * does not understand is left alone.
 */
export interface HeaderField {
  /** Lower-cased. */
  name: string;
  /** The field's bytes, its folded lines and final CRLF included. */
  start: number;
  end: number;
  /** Unfolded and trimmed; the raw bytes as latin1. */
  value: string;
}

export interface TextLeaf {
  subtype: 'plain' | 'html';
  fields: HeaderField[];
  /** Where its header fields end (the blank line), and where its body starts and ends. */
  headerEnd: number;
  bodyStart: number;
  bodyEnd: number;
  encoding: TransferEncoding;
  /** The Content-Type value as submitted; the charset is changed to utf-8 when needed. */
  contentType: string | null;
  utf8Declared: boolean;
  text: string;
}

export interface SubmittedMime {
  /** The submitted message with CRLF line ends, in shared memory (message-pieces.ts). */
  bytes: Buffer;
  fields: HeaderField[];
  headerEnd: number;
  bodyStart: number;
  leaves: TextLeaf[];
  /** A header Herald rewrites, or a text part, uses %variables%. */
  variables: boolean;
  /** A text part holds %%user_defined_unsubscribe_link%%. */
  unsubscribePlaceholder: boolean;
}

/** Headers whose values may carry variables (in the subject, and in display names). */
export const PERSONAL_HEADERS = ['subject', 'from', 'to', 'cc', 'reply-to'];

const MAX_DEPTH = 8;
const UTF8 = new Set(['utf-8', 'utf8', 'us-ascii', 'ascii']);

export function readSubmitted(raw: Buffer): SubmittedMime {
  const bytes = inSharedMemory(crlf(raw));
  const leaves: TextLeaf[] = [];
  const top = readHeaders(bytes, 0, bytes.length);
  try {
    entity(bytes, 0, bytes.length, 0, 'text/plain', leaves);
  } catch {
    leaves.length = 0;
  }
  const personal = top.fields.filter((f) => PERSONAL_HEADERS.includes(f.name));
  return {
    bytes,
    ...top,
    leaves,
    variables:
      leaves.some((l) => hasVariables(l.text)) || personal.some((f) => hasVariables(decodeHeader(f.value))),
    unsubscribePlaceholder: leaves.some((l) => l.text.includes(UNSUBSCRIBE_PLACEHOLDER)),
  };
}

function entity(
  bytes: Buffer,
  start: number,
  end: number,
  depth: number,
  defaultType: string,
  leaves: TextLeaf[],
): void {
  const head = readHeaders(bytes, start, end);
  const get = (name: string) => head.fields.find((f) => f.name === name)?.value;
  const contentType = get('content-type') ?? null;
  const { type, params } = parseContentType(contentType ?? defaultType);
  if (type.startsWith('multipart/')) {
    if (!params.boundary || depth >= MAX_DEPTH) return;
    const childType = type === 'multipart/digest' ? 'message/rfc822' : 'text/plain';
    for (const [s, e] of parts(bytes, head.bodyStart, end, params.boundary)) {
      entity(bytes, s, e, depth + 1, childType, leaves);
    }
    return;
  }
  if (type !== 'text/plain' && type !== 'text/html') return;
  const disposition = parseContentType(get('content-disposition') ?? 'inline');
  if (disposition.type === 'attachment' || disposition.params.filename || params.name) return;
  const charset = params.charset?.toLowerCase();
  if (charset !== undefined && !UTF8.has(charset)) return;
  const encoding = transferEncodingOf(get('content-transfer-encoding'));
  if (!encoding) return;
  let text: string;
  try {
    const decoded = decodeTransfer(bytes.subarray(head.bodyStart, end), encoding);
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(decoded);
  } catch {
    return;
  }
  leaves.push({
    subtype: type === 'text/html' ? 'html' : 'plain',
    fields: head.fields,
    headerEnd: head.headerEnd,
    bodyStart: head.bodyStart,
    bodyEnd: end,
    encoding,
    contentType,
    utf8Declared: charset === 'utf-8' || charset === 'utf8',
    text,
  });
}

/** An entity's header fields, where they end, and where its body starts (after the blank line). */
function readHeaders(
  bytes: Buffer,
  start: number,
  end: number,
): { fields: HeaderField[]; headerEnd: number; bodyStart: number } {
  const fields: HeaderField[] = [];
  let pos = start;
  while (pos < end) {
    const eol = bytes.indexOf('\r\n', pos);
    const lineEnd = eol < 0 || eol >= end ? end : eol;
    const next = Math.min(lineEnd + 2, end);
    if (lineEnd === pos) return { fields: withValues(bytes, fields), headerEnd: pos, bodyStart: next };
    const last = fields[fields.length - 1];
    const first = bytes[pos];
    const colon = bytes.indexOf(0x3a, pos);
    if ((first === 0x20 || first === 0x09 || colon < 0 || colon >= lineEnd) && last) {
      last.end = next;
    } else if (colon > pos && colon < lineEnd) {
      fields.push({
        name: bytes.toString('latin1', pos, colon).trim().toLowerCase(),
        start: pos,
        end: next,
        value: '',
      });
    }
    pos = next;
  }
  return { fields: withValues(bytes, fields), headerEnd: end, bodyStart: end };
}

function withValues(bytes: Buffer, fields: HeaderField[]): HeaderField[] {
  for (const f of fields) {
    const raw = bytes.toString('latin1', f.start, f.end);
    f.value = raw
      .slice(raw.indexOf(':') + 1)
      .replace(/\r\n(?=[ \t])/g, '')
      .trim();
  }
  return fields;
}

/** The body ranges of a multipart's parts, without the CRLF that belongs to each delimiter. */
function parts(bytes: Buffer, start: number, end: number, boundary: string): [number, number][] {
  const delimiter = Buffer.from(`--${boundary}`, 'latin1');
  const ranges: [number, number][] = [];
  let open = -1;
  let pos = start;
  let lineStart = start;
  while (pos < end) {
    const at = bytes.indexOf(delimiter, pos);
    if (at < 0 || at + delimiter.length > end) break;
    pos = at + 1;
    const atLineStart =
      at === start || at === lineStart || (bytes[at - 2] === 0x0d && bytes[at - 1] === 0x0a);
    if (!atLineStart) continue;
    let j = at + delimiter.length;
    const close = bytes[j] === 0x2d && bytes[j + 1] === 0x2d;
    if (close) j += 2;
    while (j < end && (bytes[j] === 0x20 || bytes[j] === 0x09)) j++;
    if (j < end && !(bytes[j] === 0x0d && bytes[j + 1] === 0x0a)) continue;
    const next = Math.min(j + 2, end);
    const before = at === start || at === lineStart ? at : at - 2;
    if (open >= 0) ranges.push([open, Math.max(open, before)]);
    if (close) return ranges;
    open = next;
    pos = next;
    lineStart = next;
  }
  if (open >= 0) ranges.push([open, end]);
  return ranges;
}

export function parseContentType(value: string): { type: string; params: Record<string, string> } {
  const [type = '', ...rest] = value.split(';');
  const params: Record<string, string> = {};
  const joined = rest.join(';');
  const param = /([^\s=;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;\s]*)/g;
  for (const m of joined.matchAll(param)) {
    const key = (m[1] ?? '').toLowerCase();
    const raw = m[2] ?? '';
    if (!(key in params)) params[key] = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
  }
  return { type: type.trim().toLowerCase(), params };
}

function crlf(raw: Buffer): Buffer {
  for (let i = raw.indexOf(0x0a); i >= 0; i = raw.indexOf(0x0a, i + 1)) {
    if (i === 0 || raw[i - 1] !== 0x0d)
      return Buffer.from(raw.toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1');
  }
  return raw;
}
