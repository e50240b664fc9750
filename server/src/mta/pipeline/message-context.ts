import type { Database } from '../../db/database.ts';
import { type TrackingPlan, UNSUBSCRIBE_PLACEHOLDER } from '../../lib/link-tracking.ts';
import type { TrackingPlans } from '../ports.ts';
import { messageRows, visibleRecipients } from './message-context.repo.ts';
import { readSubmitted, type SubmittedMime } from './submitted-mime.ts';

/**
 * What the pipeline needs of an accepted message, loaded once for all claimed recipients of a
 * batch (four queries however many messages) and kept in a small cache, since the recipients of
 * one message are usually claimed over several batches. The cache is bounded in messages and in
 * bytes of content, so a run of large messages does not keep them all (an attempt that still
 * holds an evicted one keeps it until it ends).
 */
export interface MessageContext {
  id: number;
  accountId: number;
  apiUserId: number | null;
  scMessageId: string;
  source: string;
  emailType: 'trigger' | 'batch';
  fromAddress: string;
  fromName: string | null;
  replyTo: string | null;
  /** useNotification=true: a read receipt is asked for, to the from address. */
  useNotification: boolean;
  /** contentSummary: the hidden preview text at the top of the HTML. */
  contentSummary: string | null;
  subject: string;
  labelId: number | null;
  headers: Record<string, string>;
  section: Record<string, string> | null;
  pubsub: Record<string, string | number> | null;
  individual: boolean;
  html: string | null;
  plain: string | null;
  mime: Buffer | null;
  /** SMTP mail: the structure of `mime` (with CRLF line ends), read once for all its recipients. */
  submitted: SubmittedMime | null;
  attachments: { filename: string; contentType: string; content: Buffer }[];
  /** Broadcast mail: the To and Cc headers everyone sees. */
  toList: string[];
  ccList: string[];
  senderDomain: string;
  /** Open/click tracking of this message (its API_USER's switches, X-SMTPAPI filters); null when off. */
  tracking: TrackingPlan | null;
  /** The html or plain (of SMTP mail: a text part) holds %%user_defined_unsubscribe_link%%: each recipient gets their own link. */
  unsubscribePlaceholder: boolean;
}

const CACHE_SIZE = 5000;

export class MessageContexts {
  private readonly cache = new Map<number, { context: MessageContext; bytes: number }>();
  private cachedBytes = 0;

  private readonly database: Database;
  private readonly tracking: TrackingPlans;
  private readonly cacheBytes: number;

  constructor(database: Database, tracking: TrackingPlans, cacheBytes: number) {
    this.database = database;
    this.tracking = tracking;
    this.cacheBytes = cacheBytes;
  }

  get(id: number): MessageContext | undefined {
    return this.cache.get(id)?.context;
  }

  async ensure(ids: number[]): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => !this.cache.has(id));
    if (missing.length === 0) return;
    const { messages, contents, attachments } = await messageRows(this.database, missing);
    const broadcast = messages.filter((m) => !m.individual && m.source !== 'smtp').map((m) => Number(m.id));
    const visible = await visibleRecipients(this.database, broadcast);
    const content = new Map(contents.map((c) => [Number(c.message_id), c]));
    const plans = await this.tracking.plansFor(messages);
    for (const m of messages) {
      const id = Number(m.id);
      const body = content.get(id);
      const xsmtpapi = m.xsmtpapi
        ? (JSON.parse(m.xsmtpapi) as {
            section?: Record<string, string>;
            pubsub?: Record<string, string | number>;
          })
        : {};
      const mine = visible.filter((r) => Number(r.message_id) === id);
      // Read in place: readSubmitted moves it into shared memory, the one copy kept.
      const submitted = body?.mime ? readSubmitted(asBuffer(body.mime)) : null;
      const plan = plans.get(id) ?? null;
      this.remember({
        id,
        accountId: Number(m.account_id),
        apiUserId: m.api_user_id === null ? null : Number(m.api_user_id),
        scMessageId: m.message_id,
        source: m.source,
        emailType: m.email_type,
        fromAddress: m.from_address,
        fromName: m.from_name,
        replyTo: m.reply_to,
        useNotification: Number(m.use_notification) === 1,
        contentSummary: m.content_summary,
        subject: m.subject,
        labelId: m.label_id === null ? null : Number(m.label_id),
        headers: m.headers ? (JSON.parse(m.headers) as Record<string, string>) : {},
        section: xsmtpapi.section ?? null,
        pubsub: xsmtpapi.pubsub ?? null,
        individual: Boolean(m.individual),
        html: body?.html ?? null,
        plain: body?.plain ?? null,
        mime: submitted?.bytes ?? null,
        submitted,
        attachments: attachments
          .filter((a) => Number(a.message_id) === id)
          .map((a) => ({
            filename: a.filename,
            contentType: a.content_type,
            content: Buffer.from(a.content),
          })),
        toList: mine.filter((r) => r.kind === 'to').map((r) => r.recipient),
        ccList: mine.filter((r) => r.kind === 'cc').map((r) => r.recipient),
        senderDomain: m.from_address.slice(m.from_address.lastIndexOf('@') + 1).toLowerCase(),
        // SMTP mail without an HTML part has nothing to track: its copies can then be shared.
        tracking: submitted && !submitted.leaves.some((l) => l.subtype === 'html') ? null : plan,
        unsubscribePlaceholder: submitted
          ? submitted.unsubscribePlaceholder
          : Boolean(
              body?.html?.includes(UNSUBSCRIBE_PLACEHOLDER) || body?.plain?.includes(UNSUBSCRIBE_PLACEHOLDER),
            ),
      });
    }
  }

  private remember(context: MessageContext): void {
    const bytes = contentBytes(context);
    for (const [id, oldest] of this.cache) {
      if (this.cache.size < CACHE_SIZE && this.cachedBytes + bytes <= this.cacheBytes) break;
      this.cache.delete(id);
      this.cachedBytes -= oldest.bytes;
    }
    this.cache.set(context.id, { context, bytes });
    this.cachedBytes += bytes;
  }
}

function contentBytes(context: MessageContext): number {
  const text = (context.html?.length ?? 0) + (context.plain?.length ?? 0);
  const files = context.attachments.reduce((sum, a) => sum + a.content.length, 0);
  return text + files + (context.mime?.length ?? 0);
}

/** A view on the same bytes, never a copy. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
