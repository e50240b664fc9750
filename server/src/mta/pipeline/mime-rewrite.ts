import { decodeHeader } from '../outcome/mime-walk.ts';
import { encodeWords, formatAddress } from './build.step.ts';
import { hasVariables, type Personalisation, substitute } from './render.step.ts';
import { type HeaderField, PERSONAL_HEADERS, type SubmittedMime, type TextLeaf } from './submitted-mime.ts';
import { chooseEncoding, encodeText } from './transfer-encoding.ts';

/**
 * One recipient's copy of a message submitted over SMTP, from its structure read once
 * (submitted-mime.ts): %variables% in the subject and in display names, substituted on the
 * decoded text and written back as RFC 2047 encoded words when not ASCII; with X-SMTPAPI `to`,
 * the recipient alone in To; text parts decoded, substituted, tracked (links, pixel, the
 * unsubscribe link) and encoded again 7-bit clean. Only what changes is new: the result is the
 * header block followed by slices of the submitted bytes and the rewritten parts, so the one
 * copy of a large message is the caller's final concatenation.
 */
export interface RecipientCopy {
  personalisation: Personalisation;
  /** X-SMTPAPI `to`: this recipient replaces the submitted To. */
  to: string | null;
  /** Tracking and the unsubscribe link of this recipient (trackBody), after variables. */
  track(body: { html: string | null; plain: string | null }): { html: string | null; plain: string | null };
}

interface Edit {
  start: number;
  end: number;
  text: string;
  body?: true;
}

/** The header block (through its blank line) first, then the body's pieces. */
export function rewriteSubmitted(m: SubmittedMime, copy: RecipientCopy): Buffer[] {
  const edits = [...headerEdits(m, copy), ...m.leaves.flatMap((leaf) => leafEdits(m.bytes, leaf, copy))];
  edits.sort((a, b) => a.start - b.start || a.end - b.end);
  const inHead = (e: Edit) => !e.body && e.end <= m.headerEnd;
  const head = splice(m.bytes, 0, m.headerEnd, edits.filter(inHead));
  head.push(m.bodyStart > m.headerEnd ? m.bytes.subarray(m.headerEnd, m.bodyStart) : Buffer.from('\r\n'));
  return [
    Buffer.concat(head),
    ...splice(
      m.bytes,
      m.bodyStart,
      m.bytes.length,
      edits.filter((e) => !inHead(e)),
    ),
  ];
}

function splice(bytes: Buffer, from: number, to: number, edits: Edit[]): Buffer[] {
  const pieces: Buffer[] = [];
  let cursor = from;
  for (const e of edits) {
    if (e.start > cursor) pieces.push(bytes.subarray(cursor, e.start));
    pieces.push(Buffer.from(e.text, 'utf8'));
    cursor = Math.max(cursor, e.end);
  }
  if (to > cursor) pieces.push(bytes.subarray(cursor, to));
  return pieces;
}

const NAMES: Record<string, string> = {
  subject: 'Subject',
  from: 'From',
  to: 'To',
  cc: 'Cc',
  'reply-to': 'Reply-To',
};

function headerEdits(m: SubmittedMime, copy: RecipientCopy): Edit[] {
  const edits: Edit[] = [];
  let toWritten = false;
  for (const f of m.fields) {
    if (f.name === 'to' && copy.to !== null) {
      edits.push({ start: f.start, end: f.end, text: toWritten ? '' : `To: ${copy.to}\r\n` });
      toWritten = true;
      continue;
    }
    if (!PERSONAL_HEADERS.includes(f.name)) continue;
    const decoded = decodeHeader(f.value);
    if (!hasVariables(decoded)) continue;
    const value =
      f.name === 'subject'
        ? encodeWords(substitute(decoded, copy.personalisation))
        : addresses(f.value, copy.personalisation);
    if (value !== null) edits.push({ start: f.start, end: f.end, text: `${NAMES[f.name]}: ${value}\r\n` });
  }
  if (copy.to !== null && !toWritten)
    edits.push({ start: m.headerEnd, end: m.headerEnd, text: `To: ${copy.to}\r\n` });
  return edits;
}

/**
 * An address list with variables in its display names substituted, each name quoted or as
 * encoded words; null (left as submitted) for what this does not read, such as groups.
 */
function addresses(raw: string, p: Personalisation): string | null {
  const items = splitOutside(raw, ',');
  if (items.some((item) => splitOutside(item, ':').length > 1)) return null;
  const out: string[] = [];
  for (const item of items) {
    const m = /^([^<]*)<([^<>]*)>\s*$/.exec(item.trim());
    if (!m) {
      if (item.trim()) out.push(item.trim());
      continue;
    }
    const quoted = (m[1] ?? '').trim();
    const name = decodeHeader(
      quoted.startsWith('"') && quoted.endsWith('"') ? quoted.slice(1, -1).replace(/\\(.)/g, '$1') : quoted,
    );
    out.push(formatAddress((m[2] ?? '').trim(), substitute(name, p).trim() || null));
  }
  return out.join(',\r\n ');
}

/** Splits on `separator` outside quoted strings and angle brackets. */
function splitOutside(value: string, separator: string): string[] {
  const items: string[] = [];
  let current = '';
  let quoted = false;
  let angle = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i] as string;
    if (quoted && c === '\\') {
      current += c + (value[i + 1] ?? '');
      i++;
      continue;
    }
    if (c === '"' && !angle) quoted = !quoted;
    else if (!quoted && c === '<') angle = true;
    else if (!quoted && c === '>') angle = false;
    if (c === separator && !quoted && !angle) {
      items.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  items.push(current);
  return items;
}

function leafEdits(bytes: Buffer, leaf: TextLeaf, copy: RecipientCopy): Edit[] {
  const substituted = substitute(leaf.text, copy.personalisation);
  const html = leaf.subtype === 'html';
  const tracked = copy.track(html ? { html: substituted, plain: null } : { html: null, plain: substituted });
  const text = (html ? tracked.html : tracked.plain) ?? substituted;
  if (text === leaf.text) return [];
  const normalized = text.replace(/\r?\n/g, '\r\n');
  const encoding = chooseEncoding(normalized, leaf.encoding);
  let body = encodeText(normalized, encoding);
  const crlfEnded = leaf.bodyEnd - leaf.bodyStart >= 2 && bytes[leaf.bodyEnd - 2] === 0x0d;
  if (crlfEnded && !body.endsWith('\r\n')) body += '\r\n';
  const edits: Edit[] = [];
  const field = (name: string) => leaf.fields.find((f: HeaderField) => f.name === name);
  if (/[^\t\r\n\x20-\x7e]/.test(text) && !leaf.utf8Declared) {
    const type = field('content-type');
    const value = withUtf8(leaf.contentType ?? 'text/plain');
    if (type) edits.push({ start: type.start, end: type.end, text: `Content-Type: ${value}\r\n` });
    else edits.push({ start: leaf.headerEnd, end: leaf.headerEnd, text: `Content-Type: ${value}\r\n` });
  }
  if (encoding !== leaf.encoding) {
    const cte = field('content-transfer-encoding');
    const line = `Content-Transfer-Encoding: ${encoding}\r\n`;
    edits.push(
      cte
        ? { start: cte.start, end: cte.end, text: line }
        : { start: leaf.headerEnd, end: leaf.headerEnd, text: line },
    );
  }
  edits.push({ start: leaf.bodyStart, end: leaf.bodyEnd, text: body, body: true });
  return edits;
}

function withUtf8(contentType: string): string {
  const charset = /;\s*charset\s*=\s*("[^"]*"|[^;\s]*)/i;
  return charset.test(contentType)
    ? contentType.replace(charset, '; charset=utf-8')
    : `${contentType}; charset=utf-8`;
}
