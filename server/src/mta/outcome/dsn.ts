import { decodeVerp, type VerpOptions } from '../verp.ts';
import { categorize, type DeliveryOutcome, parseReply, type SmtpReply, softBounce } from './classify.ts';
import { decodeHeader, first, type MimePart, parseHeaderBlock, parseMime, walk } from './mime-walk.ts';

/**
 * Asynchronous bounces: mail that reaches Herald's inbound server at a VERP return path after
 * the remote side first accepted the message. The envelope recipient is the VERP address, which
 * names the recipient row; the report says what happened.
 *
 * Standard reports (multipart/report; report-type=delivery-status, RFC 3464) are read field by
 * field. Others (old qmail, some Chinese providers) are plain text: the failed address and the
 * remote server's reply are picked out of the words. A failure becomes a soft bounce (after an
 * accepted delivery, product-spec's soft-bounce classes apply), a "delayed" report a deferral
 * note, a "delivered" one a delivery. Mail that is no bounce at all (an auto-reply, a human) is
 * reported as such for the inbound side to route elsewhere.
 */

export type DsnAction = 'failed' | 'delayed' | 'delivered' | 'relayed' | 'expanded';

export interface BounceRecipient {
  /** Final-Recipient (or the address found in a text bounce), without the `rfc822;` type. */
  finalRecipient: string | null;
  originalRecipient: string | null;
  action: DsnAction;
  /** RFC 3463 status, e.g. `5.1.1`. */
  status: string | null;
  /** Diagnostic-Code without its type, e.g. `550 5.1.1 user unknown`. */
  diagnosticCode: string | null;
  remoteMta: string | null;
  outcome: DeliveryOutcome;
}

export type ParsedBounce =
  | {
      kind: 'bounce';
      format: 'dsn' | 'text';
      /** The VERP address the bounce was sent to (or, failing that, found in the returned headers). */
      verpAddress: string | null;
      /** The recipient row, when `verp` options were given and the address verified. */
      recipientId: number | null;
      reportingMta: string | null;
      originalMessageId: string | null;
      recipients: BounceRecipient[];
    }
  | { kind: 'not_a_bounce'; verpAddress: string | null; recipientId: number | null };

export interface ParseBounceOptions {
  /** RCPT TO addresses of the inbound SMTP transaction that carried the bounce. */
  envelopeTo: string[];
  verp?: VerpOptions;
}

const ACTIONS = new Set<DsnAction>(['failed', 'delayed', 'delivered', 'relayed', 'expanded']);

export function parseBounce(raw: Buffer | string, options: ParseBounceOptions): ParsedBounce {
  const root = parseMime(raw);
  const parts = [...walk(root)];
  const attribution = attribute(parts, options);
  const statusPart = parts.find(
    (p) => p.contentType === 'message/delivery-status' || p.contentType === 'message/global-delivery-status',
  );
  const originalMessageId = findOriginalMessageId(parts);

  if (statusPart) {
    const { reportingMta, recipients } = readDeliveryStatus(statusPart.body);
    if (recipients.length > 0) {
      return { kind: 'bounce', format: 'dsn', ...attribution, reportingMta, originalMessageId, recipients };
    }
  }
  if (!looksLikeBounce(root)) return { kind: 'not_a_bounce', ...attribution };
  const text = parts
    .filter((p) => p.contentType === 'text/plain' || p.contentType === 'text/html')
    .map((p) => (p.contentType === 'text/html' ? stripHtml(p.body) : p.body))
    .join('\n');
  const recipient = readTextBounce(text, options.envelopeTo);
  return {
    kind: 'bounce',
    format: 'text',
    ...attribution,
    reportingMta: null,
    originalMessageId,
    recipients: [recipient],
  };
}

function attribute(
  parts: MimePart[],
  options: ParseBounceOptions,
): { verpAddress: string | null; recipientId: number | null } {
  const verp = options.verp;
  const candidates = [...options.envelopeTo];
  if (verp) {
    // A forwarded or misdirected bounce may lose the envelope; the returned headers still carry it.
    const domain = verp.bounceDomain.replace(/\./g, '\\.');
    const pattern = new RegExp(`b-[0-9a-z]+-[a-z2-7]{8}@${domain}`, 'gi');
    for (const part of parts) for (const m of part.body.matchAll(pattern)) candidates.push(m[0]);
  }
  for (const address of candidates) {
    if (!verp) return { verpAddress: address, recipientId: null };
    const decoded = decodeVerp(address, verp);
    if (decoded.kind === 'recipient')
      return { verpAddress: address.toLowerCase(), recipientId: decoded.recipientId };
  }
  return { verpAddress: options.envelopeTo[0] ?? null, recipientId: null };
}

/** RFC 3464 §2.1: per-message fields, a blank line, then one block per recipient. */
function readDeliveryStatus(body: string): { reportingMta: string | null; recipients: BounceRecipient[] } {
  const blocks = body
    .split(/\r?\n[ \t]*\r?\n/)
    .map((block) => parseHeaderBlock(block.trim()))
    .filter((h) => h.size > 0);
  const perMessage = blocks.find((h) => !h.has('final-recipient') && !h.has('action'));
  const recipients: BounceRecipient[] = [];
  for (const fields of blocks) {
    if (!fields.has('final-recipient') && !fields.has('action')) continue;
    const action = (first(fields, 'action') ?? '').toLowerCase().split(/[\s(]/)[0] as DsnAction;
    const status = /([245])\.\d{1,3}\.\d{1,3}/.exec(first(fields, 'status') ?? '')?.[0] ?? null;
    const diagnosticCode = typed(first(fields, 'diagnostic-code'));
    const resolvedAction: DsnAction = ACTIONS.has(action)
      ? action
      : status?.startsWith('2')
        ? 'delivered'
        : 'failed';
    recipients.push({
      finalRecipient: typed(first(fields, 'final-recipient')),
      originalRecipient: typed(first(fields, 'original-recipient')),
      action: resolvedAction,
      status,
      diagnosticCode,
      remoteMta: typed(first(fields, 'remote-mta')),
      outcome: outcomeOf(resolvedAction, status, diagnosticCode),
    });
  }
  return { reportingMta: typed(perMessage && first(perMessage, 'reporting-mta')), recipients };
}

/** `rfc822; a@b.c` → `a@b.c`; `smtp; 550 …` → `550 …`. */
function typed(value: string | undefined): string | null {
  if (!value) return null;
  const semi = value.indexOf(';');
  const rest = (semi >= 0 ? value.slice(semi + 1) : value).replace(/\s+/g, ' ').trim();
  return rest ? decodeHeader(rest).replace(/^<(.*)>$/, '$1') : null;
}

function outcomeOf(action: DsnAction, status: string | null, diagnostic: string | null): DeliveryOutcome {
  const reply = replyOf(status, diagnostic);
  const detail = diagnostic ?? (status ? `status ${status}` : `action ${action}`);
  if (action === 'delivered' || action === 'relayed' || action === 'expanded')
    return { kind: 'delivered', detail };
  if (action === 'delayed') return { kind: 'deferred', category: categorize(reply), detail };
  return softBounce(categorize(reply), detail);
}

/** The remote reply in the diagnostic, with the Status field filling in what it lacks. */
function replyOf(status: string | null, diagnostic: string | null): SmtpReply {
  const reply = parseReply(diagnostic ?? '');
  if (!reply.code) {
    reply.code = status?.startsWith('4') ? 450 : 550;
    reply.text = diagnostic ?? '';
  }
  reply.enhanced ??= status;
  return reply;
}

function looksLikeBounce(root: MimePart): boolean {
  const from = decodeHeader(first(root.headers, 'from') ?? '').toLowerCase();
  const subject = decodeHeader(first(root.headers, 'subject') ?? '').toLowerCase();
  if (root.contentType === 'multipart/report') return true;
  if (/mailer-daemon|postmaster|mail delivery (sub)?system/.test(from)) return true;
  return /undeliver|undelivered|returned mail|delivery (status notification|failure|has failed)|failure notice|could not be delivered|退信|未送达|投递失败|发送失败|系统退信/.test(
    subject,
  );
}

const ADDRESS = /[A-Za-z0-9._%+'=-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;

/** Plain-text bounce: the first failed-looking address and the first SMTP reply in the words. */
function readTextBounce(text: string, envelopeTo: string[]): BounceRecipient {
  const ignore = new Set(envelopeTo.map((a) => a.toLowerCase().replace(/^<|>$/g, '')));
  // A reply code at the start of a line or after "said:", "returned '", "返回", never mid-sentence.
  const replyLine =
    /(?:^|said:?\s+|returned\s+'?|返回\s*)([45]\d\d)[ -]((?:[45]\.\d{1,3}\.\d{1,3}\s)?[^\r\n']*)/im.exec(
      text,
    );
  const diagnosticCode = replyLine ? `${replyLine[1]} ${(replyLine[2] ?? '').trim()}` : null;
  const addresses = [...text.matchAll(ADDRESS)]
    .map((m) => m[0].replace(/\.$/, ''))
    .filter((a) => !ignore.has(a.toLowerCase()) && !/^(mailer-daemon|postmaster)@/i.test(a));
  const status = diagnosticCode ? (parseReply(diagnosticCode).enhanced ?? null) : null;
  const delayed =
    /will (continue|keep) (trying|to try)|still trying|has been delayed|delivery is delayed|延迟投递/i.test(
      text,
    );
  const action: DsnAction = delayed && !diagnosticCode?.startsWith('5') ? 'delayed' : 'failed';
  const summary = diagnosticCode ?? firstSentence(text);
  return {
    finalRecipient: addresses[0] ?? null,
    originalRecipient: null,
    action,
    status,
    diagnosticCode,
    remoteMta: null,
    outcome: outcomeOf(action, status, summary),
  };
}

function findOriginalMessageId(parts: MimePart[]): string | null {
  for (const part of parts) {
    if (part.contentType === 'text/rfc822-headers') {
      const id = first(parseHeaderBlock(part.body), 'message-id');
      if (id) return id.trim();
    }
    if (part.contentType === 'message/rfc822') {
      const inner = part.parts[0];
      const id = inner && first(inner.headers, 'message-id');
      if (id) return id.trim();
    }
  }
  return null;
}

function firstSentence(text: string): string | null {
  const line = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  return line ? line.slice(0, 300) : null;
}

function stripHtml(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>|<\/(p|div|tr|li)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
