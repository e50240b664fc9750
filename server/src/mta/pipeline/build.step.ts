import { randomBytes } from 'node:crypto';
import { isInvitationType } from '../../lib/icalendar.ts';

/**
 * Building the message bytes. API mail is assembled here (a small MIME writer: text parts in 7bit
 * when they are short-lined ASCII, base64 otherwise; multipart/alternative for html + plain,
 * multipart/mixed around attachments; a meeting invitation as a text/calendar alternative).
 * SMTP-submitted mail passes through as submitted; only the headers Herald adds are put on top
 * (Message-ID and Date when missing, List-Unsubscribe).
 * Everything uses CRLF line ends, ready for signing and DATA.
 */
export interface BuiltHeaders {
  from: string;
  to: string | null;
  cc: string | null;
  replyTo: string | null;
  /** Where a read receipt goes (Disposition-Notification-To, RFC 8098); null for none. */
  notifyTo: string | null;
  subject: string;
  messageId: string;
  date: Date;
  listUnsubscribe: string | null;
  extra: Record<string, string>;
}

export interface BuiltBody {
  html: string | null;
  plain: string | null;
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

const MANAGED = new Set([
  'from',
  'to',
  'cc',
  'bcc',
  'reply-to',
  'subject',
  'message-id',
  'date',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
  'list-unsubscribe',
  'list-unsubscribe-post',
  'disposition-notification-to',
  'return-path',
  'dkim-signature',
  'x-smtpapi',
]);

export function buildMessage(h: BuiltHeaders, body: BuiltBody): Buffer {
  const lines: string[] = [
    `From: ${h.from}`,
    ...(h.to ? [foldAddresses('To', h.to)] : []),
    ...(h.cc ? [foldAddresses('Cc', h.cc)] : []),
    ...(h.replyTo ? [foldAddresses('Reply-To', h.replyTo)] : []),
    ...(h.notifyTo ? [`Disposition-Notification-To: ${h.notifyTo}`] : []),
    `Subject: ${encodeWords(h.subject)}`,
    `Date: ${h.date.toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: ${h.messageId}`,
    ...listUnsubscribeHeaders(h.listUnsubscribe),
    ...Object.entries(h.extra)
      .filter(([name]) => !MANAGED.has(name.toLowerCase()))
      .map(([name, value]) => `${name}: ${encodeWords(value)}`),
    'MIME-Version: 1.0',
  ];
  const content = entity(body);
  return Buffer.from(`${lines.join('\r\n')}\r\n${content}`, 'utf8');
}

/**
 * The preview text mail programs show beside the subject (contentSummary): a hidden block first
 * in the body of the HTML, so it is the first text they find and nobody sees it in the message.
 */
export function withPreviewText(html: string, summary: string | null): string {
  if (!summary) return html;
  const escaped = summary.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const block = `<div style="display:none;max-height:0;max-width:0;overflow:hidden;opacity:0;mso-hide:all">${escaped}</div>`;
  const body = /<body\b[^>]*>/i.exec(html);
  if (!body) return `${block}${html}`;
  const at = body.index + body[0].length;
  return `${html.slice(0, at)}${block}${html.slice(at)}`;
}

/**
 * Raw SMTP mail: our headers on top of the submitted ones; the rest untouched. The message comes
 * whole, or (a recipient's copy, mime-rewrite.ts) as pieces with CRLF line ends whose first is the
 * whole header block, and goes on as pieces (message-pieces.ts): nothing is joined.
 */
export function prependHeaders(
  raw: Buffer | Buffer[],
  add: { messageId: string; date: Date; listUnsubscribe: string | null },
): Buffer[] {
  const pieces = Array.isArray(raw) ? raw : [crlf(raw)];
  const normalized = pieces[0] ?? Buffer.alloc(0);
  const end = Array.isArray(raw) ? normalized.length : headerEnd(normalized);
  const head = normalized.subarray(0, end).toString('latin1').toLowerCase();
  const lines: string[] = [];
  if (!/(^|\n)message-id:/.test(head)) lines.push(`Message-ID: ${add.messageId}`);
  if (!/(^|\n)date:/.test(head)) lines.push(`Date: ${add.date.toUTCString().replace('GMT', '+0000')}`);
  if (add.listUnsubscribe && !/(^|\n)list-unsubscribe:/.test(head))
    lines.push(...listUnsubscribeHeaders(add.listUnsubscribe));
  if (lines.length === 0) return pieces;
  return [Buffer.from(lines.map((l) => `${l}\r\n`).join(''), 'latin1'), ...pieces];
}

function listUnsubscribeHeaders(url: string | null): string[] {
  return url ? [`List-Unsubscribe: <${url}>`, 'List-Unsubscribe-Post: List-Unsubscribe=One-Click'] : [];
}

/** `"Name" <a@b>` with the name as encoded words when it is not plain ASCII. */
export function formatAddress(address: string, name: string | null): string {
  if (!name) return address;
  const safe = /^[\x20-\x7e]*$/.test(name) ? `"${name.replace(/["\\]/g, '\\$&')}"` : encodeWords(name);
  return `${safe} <${address}>`;
}

function foldAddresses(name: string, list: string): string {
  const parts = list.split(/\s*[;,]\s*/).filter(Boolean);
  let out = `${name}: `;
  let line = out.length;
  parts.forEach((part, i) => {
    const piece = i < parts.length - 1 ? `${part},` : part;
    if (i > 0 && line + piece.length + 1 > 76) {
      out += `\r\n ${piece}`;
      line = piece.length + 1;
    } else {
      out += i > 0 ? ` ${piece}` : piece;
      line += piece.length + (i > 0 ? 1 : 0);
    }
  });
  return out;
}

/** RFC 2047 B-encoded words for non-ASCII text, split on character boundaries, folded. */
export function encodeWords(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text) && text.length <= 900) return text;
  const words: string[] = [];
  let chunk = '';
  for (const char of text) {
    if (Buffer.byteLength(chunk + char) > 45) {
      words.push(chunk);
      chunk = '';
    }
    chunk += char;
  }
  if (chunk) words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${Buffer.from(w).toString('base64')}?=`).join('\r\n ');
}

function entity(body: BuiltBody): string {
  const texts: string[] = [];
  if (body.plain !== null) texts.push(textPart('text/plain', body.plain));
  if (body.html !== null) texts.push(textPart('text/html', body.html));
  // A meeting invitation (mail/sendcalendar) is the last alternative, where mail programs look
  // for it, and a copy goes as invite.ics for those that only offer attachments.
  const invitations = body.attachments.filter((a) => isInvitationType(a.contentType));
  texts.push(...invitations.map((a) => invitationPart(a.contentType, a.content)));
  const attachments = body.attachments.map((a) =>
    isInvitationType(a.contentType) ? { ...a, contentType: 'application/ics' } : a,
  );
  let main: string;
  if (texts.length === 1) main = texts[0] as string;
  else main = multipart('alternative', texts);
  if (attachments.length === 0) return main;
  return multipart('mixed', [
    main,
    ...attachments.map((a) => {
      const name = /^[\x20-\x7e]*$/.test(a.filename)
        ? `filename="${a.filename.replace(/["\\]/g, '')}"`
        : `filename*=UTF-8''${encodeURIComponent(a.filename)}`;
      return [
        `Content-Type: ${a.contentType}`,
        'Content-Transfer-Encoding: base64',
        `Content-Disposition: attachment; ${name}`,
        '',
        base64Lines(a.content),
      ].join('\r\n');
    }),
  ]);
}

/** A whole entity: its headers, a blank line, its body (ending in CRLF). */
function textPart(type: string, text: string): string {
  const normalized = text.replace(/\r?\n/g, '\r\n');
  const plain =
    !/[^\t\r\n\x20-\x7e]/.test(normalized) && !normalized.split('\r\n').some((l) => l.length > 998);
  if (plain) {
    return `Content-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: 7bit\r\n\r\n${normalized}${normalized.endsWith('\r\n') ? '' : '\r\n'}`;
  }
  return `Content-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n${base64Lines(Buffer.from(text, 'utf8'))}`;
}

/** The iTIP part: its type keeps `method`, which mail programs read to offer Accept / Decline. */
function invitationPart(contentType: string, content: Buffer): string {
  return `Content-Type: ${contentType}\r\nContent-Transfer-Encoding: base64\r\n\r\n${base64Lines(content)}`;
}

function multipart(subtype: string, parts: string[]): string {
  const boundary = `----=_Herald_${randomBytes(12).toString('hex')}`;
  return [
    `Content-Type: multipart/${subtype}; boundary="${boundary}"`,
    '',
    ...parts.map((p) => `--${boundary}\r\n${p}`),
    `--${boundary}--\r\n`,
  ].join('\r\n');
}

function base64Lines(content: Buffer): string {
  const b64 = content.toString('base64');
  let out = '';
  for (let i = 0; i < b64.length; i += 76) out += `${b64.slice(i, i + 76)}\r\n`;
  return out;
}

function headerEnd(raw: Buffer): number {
  const at = raw.indexOf('\r\n\r\n');
  return at >= 0 ? at + 2 : raw.length;
}

function crlf(raw: Buffer): Buffer {
  for (let i = raw.indexOf(0x0a); i >= 0; i = raw.indexOf(0x0a, i + 1)) {
    if (i === 0 || raw[i - 1] !== 0x0d)
      return Buffer.from(raw.toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1');
  }
  return raw;
}
