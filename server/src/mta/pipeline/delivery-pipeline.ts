import type { SecretBox } from '../../core/security/secret-box.ts';
import type { TrackingSources } from '../../core/tracking/tracking-plans.ts';
import type { Database } from '../../db/database.ts';
import type { Logger } from '../../logger.ts';
import { type DeliveryOutcome, invalid } from '../outcome/classify.ts';
import { expireDeferral, nextRetry } from '../outcome/retry-schedule.ts';
import type { DnsResolver } from '../resolver.ts';
import { DestinationPool } from '../smtp-client/connection-pool.ts';
import { type SmtpConnection, SmtpTransportError } from '../smtp-client/smtp-connection.ts';
import { encodeVerp } from '../verp.ts';
import { buildMessage, formatAddress, prependHeaders } from './build.step.ts';
import type { ClaimedRecipient, ClaimRepo } from './claim.repo.ts';
import { outcomeOfOpenFailure, outcomeOfTransaction } from './deliver.step.ts';
import { type DeliverySettings, limitFor } from './delivery-settings.ts';
import { DotMarker } from './dot-marker.ts';
import { type MessageContext, MessageContexts } from './message-context.ts';
import type { OutcomeRecord, OutcomeWriter } from './outcome.repo.ts';
import type { PolicyMessage, SendContext, SendPolicy, Suppressed, SuppressionCheck } from './policies.ts';
import { hasVariables, markSubject, type Personalisation, substitute, trackBody } from './render.step.ts';
import { mxNameOf, Router } from './route.step.ts';
import { Signer } from './sign.step.ts';
import { unsubscribeUrl } from './unsubscribe-token.ts';

/**
 * The delivery pipeline, one claimed recipient at a time, in named steps:
 *
 *   recover  a row found with the dot mark and no outcome: delivered, unconfirmed (no resend)
 *   suppress SuppressionCheck.check → invalid with the list's reason, nothing sent
 *   hold     SendPolicy.holdUntil → held until then (paused queue, do-not-disturb)
 *   route    MX (or the relay) → a pooled connection to the destination
 *   render   %variables%, section, pubsub; AD mark; headers (Message-ID, Date, List-Unsubscribe)
 *   sign     DKIM with the sending domain's key
 *   deliver  MAIL (VERP return path) / RCPT / DATA, dot mark committed before the final dot
 *   record   delivered / deferred (retry or, past the lifetime, soft bounce) / invalid, with the
 *            remote reply and a send-log row; final failures go to SuppressionCheck.recordFailure
 *
 * A message without per-recipient differences (broadcast trigger mail) is built and signed once
 * and the bytes reused for each of its recipients; everything else is built per recipient.
 */
export interface PipelineDeps {
  database: Database;
  logger: Logger;
  secretBox: SecretBox;
  settings: DeliverySettings;
  resolver: DnsResolver;
  mtaPort: number;
  localName: string;
  publicUrl: string;
  verpSecret: string;
  unsubscribeKey: Buffer;
  /** Signs open-pixel and click URLs; `tracking` says where they point. */
  trackingKey: Buffer;
  tracking: TrackingSources;
  suppression: SuppressionCheck;
  policy: SendPolicy;
  claims: ClaimRepo;
  outcomes: OutcomeWriter;
}

const UNCONFIRMED =
  'delivered (unconfirmed): the message was handed over up to its final dot, but the worker stopped before the reply was recorded; not sent again';

type Rules = Awaited<ReturnType<SendPolicy['headerRules']>>;

export class DeliveryPipeline {
  private readonly contexts: MessageContexts;
  private readonly router: Router;
  private readonly signer: Signer;
  private readonly pools = new Map<string, DestinationPool>();
  private readonly shared = new Map<number, Promise<Buffer>>();
  private readonly rules = new Map<string, { at: number; rules: Promise<Rules> }>();
  private readonly dots: DotMarker;
  /** Suppression verdicts of claimed rows, checked per batch in prepare(), taken by process(). */
  private readonly verdicts = new Map<number, Suppressed | null>();
  private readonly sweeper: NodeJS.Timeout;

  private readonly deps: PipelineDeps;

  constructor(deps: PipelineDeps) {
    this.deps = deps;
    this.contexts = new MessageContexts(deps.database, deps.tracking);
    this.router = new Router({
      resolver: deps.resolver,
      mtaPort: deps.mtaPort,
      localName: deps.localName,
      timeoutMs: deps.settings.timeoutMs,
      relay: deps.settings.relay,
      relayAllowPrivate: deps.settings.relayAllowPrivate,
    });
    this.signer = new Signer(deps.database, deps.secretBox, deps.logger);
    this.dots = new DotMarker(deps.claims);
    this.sweeper = setInterval(() => this.sweep(), 30_000);
    this.sweeper.unref();
  }

  /** Loads the messages of a claimed batch, and checks its recipients against suppression, in one go. */
  async prepare(rows: ClaimedRecipient[]): Promise<void> {
    await this.contexts.ensure(rows.map((r) => r.message_id));
    const byAccount = new Map<number, { row: ClaimedRecipient; context: MessageContext }[]>();
    for (const row of rows) {
      const context = this.contexts.get(row.message_id);
      if (!context || row.dot_sent_at !== null) continue;
      const list = byAccount.get(context.accountId) ?? [];
      list.push({ row, context });
      byAccount.set(context.accountId, list);
    }
    await Promise.all(
      [...byAccount].map(async ([accountId, list]) => {
        const verdicts = await this.deps.suppression
          .checkMany(
            accountId,
            list.map(({ row, context }) => ({ recipient: row.recipient, context: sendContextOf(context) })),
          )
          // Not fatal here: process() asks again for each row and records what that says.
          .catch(() => []);
        verdicts.forEach((verdict, i) => {
          const entry = list[i];
          if (entry) this.verdicts.set(entry.row.id, verdict);
        });
      }),
    );
  }

  async flush(): Promise<void> {
    await this.deps.outcomes.drain();
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.pools.values()].map((p) => p.close()));
    this.pools.clear();
    await this.signer.close();
  }

  /** Never rejects: every end is a recorded outcome, or the row is left to its lease. */
  async process(row: ClaimedRecipient, owner: string): Promise<void> {
    const started = Date.now();
    let dotMarked = false;
    try {
      const context = this.contexts.get(row.message_id);
      if (!context) {
        await this.record(row, owner, started, invalid('other', 'the message body is missing'), null);
        return;
      }
      if (row.dot_sent_at !== null) {
        await this.write(row, owner, {
          status: 'delivered',
          countsAsAttempt: true,
          reply: UNCONFIRMED,
          mxHost: row.mx_host,
          at: Date.now(),
        });
        return;
      }
      const prefetched = this.verdicts.get(row.id);
      this.verdicts.delete(row.id);
      const suppressed =
        prefetched !== undefined
          ? prefetched
          : await this.deps.suppression.check(context.accountId, row.recipient, sendContextOf(context));
      if (suppressed) {
        await this.write(row, owner, {
          status: 'invalid',
          countsAsAttempt: false,
          category: suppressed.list,
          reason: suppressed.reason,
          subStatus: suppressed.subStatus,
          reply: suppressed.detail,
          at: Date.now(),
        });
        return;
      }
      const hold = await this.deps.policy.holdUntil(this.policyMessage(context, row), Date.now());
      if (hold) {
        await this.write(row, owner, {
          status: 'held',
          countsAsAttempt: false,
          nextAttemptAt: hold.until,
          reason: hold.reason,
          reply: hold.reason,
          at: Date.now(),
        });
        return;
      }
      const route = await this.router.route(
        row.recipient_domain,
        await this.deps.policy.relayFor(context.accountId),
      );
      if (route.kind === 'failed') {
        const outcome: DeliveryOutcome = route.permanent
          ? invalid('server_unreachable', route.reason)
          : { kind: 'deferred', category: 'server_unreachable', detail: route.reason };
        await this.record(row, owner, started, outcome, null);
        return;
      }
      const rules = await this.headerRules(context.accountId, row.recipient_domain);
      const bytes = await this.render(context, row, rules);
      const pool = this.pool(route.key, row.recipient_domain, route.opener);
      const acquired = await pool.acquire();
      if ('failure' in acquired) {
        await this.record(row, owner, started, outcomeOfOpenFailure(acquired.failure), null);
        return;
      }
      const connection = acquired.connection;
      const where = { mxHost: mxNameOf(connection), mxIp: connection.remoteAddress, tls: connection.secure };
      if (
        !connection.secure &&
        (await this.deps.policy.requiresTls(context.accountId, row.recipient_domain))
      ) {
        pool.release(connection, true);
        const detail = `TLS is required for ${row.recipient_domain} by the sender's configuration, but ${where.mxHost} does not offer STARTTLS`;
        await this.record(
          row,
          owner,
          started,
          { kind: 'deferred', category: 'server_unreachable', detail },
          where,
        );
        return;
      }
      const from = encodeVerp(row.id, {
        secret: this.deps.verpSecret,
        bounceDomain: rules.mailFromDomain ?? this.deps.settings.bounceDomain,
      });
      let outcome: DeliveryOutcome | null;
      try {
        const result = await connection.send({ from, to: [row.recipient] }, bytes, async (writeDot) => {
          dotMarked = await this.dots.mark(owner, row.id, writeDot);
          return dotMarked;
        });
        pool.release(connection, !result.withheld);
        outcome = outcomeOfTransaction(result);
      } catch (error) {
        pool.release(connection, false);
        if (dotMarked) {
          // The dot went out and the answer did not come back: the remote side may well have
          // taken the message. Sending it again could deliver it twice; record it as handed over.
          const text = error instanceof Error ? error.message : String(error);
          await this.write(row, owner, {
            status: 'delivered',
            countsAsAttempt: true,
            reply: `delivered (unconfirmed): the connection failed after the final dot (${text})`,
            ...where,
            at: Date.now(),
            durationMs: Date.now() - started,
          });
          return;
        }
        outcome = outcomeOfOpenFailure(transportOf(error, where.mxHost));
      }
      if (outcome === null) {
        // The lease was lost to another worker before the dot: the transaction was abandoned.
        await this.deps.claims.releaseOne(owner, row.id).catch(() => {});
        return;
      }
      await this.record(row, owner, started, outcome, where);
    } catch (error) {
      this.deps.logger.error({ err: error, recipientId: row.id }, 'delivery step failed (a bug)');
      if (dotMarked) return; // left to its lease: the recovery records it as delivered
      await this.record(
        row,
        owner,
        started,
        { kind: 'deferred', category: 'other', detail: `internal error: ${(error as Error).message}` },
        null,
      ).catch(() => {});
    }
  }

  private async record(
    row: ClaimedRecipient,
    owner: string,
    started: number,
    outcome: DeliveryOutcome,
    where: { mxHost: string; mxIp: string; tls: boolean } | null,
  ): Promise<void> {
    const at = Date.now();
    const base = { ...(where ?? {}), at, durationMs: at - started, countsAsAttempt: true };
    let final = outcome;
    if (outcome.kind === 'deferred') {
      const retry = nextRetry(
        row.attempts + 1,
        new Date(row.created_at),
        new Date(at),
        this.deps.settings.retry,
      );
      if (retry.kind === 'retry') {
        await this.write(row, owner, {
          ...base,
          status: 'deferred',
          category: outcome.category,
          reply: outcome.detail,
          nextAttemptAt: retry.at.getTime(),
        });
        return;
      }
      final = expireDeferral(outcome);
    }
    if (final.kind === 'delivered') {
      await this.write(row, owner, { ...base, status: 'delivered', reply: final.detail });
      return;
    }
    if (final.kind === 'deferred') return;
    const written = await this.write(row, owner, {
      ...base,
      status: final.kind,
      category: final.category,
      reason: final.kind === 'invalid' ? final.reason : final.class,
      subStatus: final.subStatus,
      reply: final.detail,
    });
    if (written) {
      await this.deps.suppression
        .recordFailure(row.account_id, row.recipient, {
          category: final.category,
          kind: final.kind,
          detail: final.detail,
          at,
        })
        .catch((error: unknown) =>
          this.deps.logger.error({ err: error }, 'recording a failure on the lists failed'),
        );
    }
  }

  private write(
    row: ClaimedRecipient,
    owner: string,
    fields: Partial<OutcomeRecord> & Pick<OutcomeRecord, 'status' | 'countsAsAttempt' | 'at'>,
  ): Promise<boolean> {
    return this.deps.outcomes.write({
      recipientId: row.id,
      accountId: row.account_id,
      owner,
      attempt: row.attempts + 1,
      nextAttemptAt: null,
      category: null,
      reason: null,
      subStatus: null,
      reply: null,
      mxHost: null,
      mxIp: null,
      tls: false,
      durationMs: null,
      ...fields,
    });
  }

  private policyMessage(context: MessageContext, row: ClaimedRecipient): PolicyMessage {
    return {
      accountId: context.accountId,
      apiUserId: context.apiUserId,
      apiUser: null,
      senderDomain: context.senderDomain,
      labelId: context.labelId,
      emailType: context.emailType,
      recipientDomain: row.recipient_domain,
    };
  }

  /** The fixed from prefix is per receiving domain, so the cache key names both. */
  private headerRules(accountId: number, recipientDomain: string): Promise<Rules> {
    const key = `${accountId}\n${recipientDomain}`;
    const cached = this.rules.get(key);
    if (cached && Date.now() - cached.at < 10_000) return cached.rules;
    if (this.rules.size > 10_000) this.rules.clear();
    const rules = this.deps.policy.headerRules(accountId, recipientDomain);
    this.rules.set(key, { at: Date.now(), rules });
    rules.catch(() => this.rules.delete(key));
    return rules;
  }

  private pool(
    key: string,
    domain: string,
    opener: ConstructorParameters<typeof DestinationPool>[2],
  ): DestinationPool {
    let pool = this.pools.get(key);
    if (!pool) {
      const limits = this.deps.settings.limits;
      pool = new DestinationPool(key, key === 'relay' ? limits.default : limitFor(limits, domain), opener);
      this.pools.set(key, pool);
    }
    return pool;
  }

  /** The signed bytes for this recipient: shared by a message's recipients when nothing differs. */
  private render(context: MessageContext, row: ClaimedRecipient, rules: Rules): Promise<Buffer> {
    const perRecipient =
      context.individual ||
      context.emailType === 'batch' ||
      context.tracking !== null ||
      context.unsubscribePlaceholder ||
      row.vars !== null ||
      (context.source === 'smtp' && hasVariables(context.mime?.toString('latin1') ?? null));
    if (!perRecipient) {
      let shared = this.shared.get(context.id);
      if (!shared) {
        shared = this.build(context, row, rules, false);
        this.shared.set(context.id, shared);
        if (this.shared.size > 2000) this.shared.delete(this.shared.keys().next().value as number);
        shared.catch(() => this.shared.delete(context.id));
      }
      return shared;
    }
    return this.build(context, row, rules, true);
  }

  private async build(
    context: MessageContext,
    row: ClaimedRecipient,
    rules: Rules,
    personal: boolean,
  ): Promise<Buffer> {
    const now = new Date();
    const p: Personalisation = {
      vars: row.vars ? (JSON.parse(row.vars) as Record<string, string | number>) : null,
      section: context.section,
      pubsub: context.pubsub,
    };
    const domain = context.senderDomain;
    const messageId =
      personal && (context.individual || context.emailType === 'batch')
        ? `<${context.scMessageId}.${row.rcpt_index}@${domain}>`
        : `<${context.scMessageId}@${domain}>`;
    const listUnsubscribe =
      context.emailType === 'batch'
        ? unsubscribeUrl(
            this.deps.publicUrl,
            { accountId: context.accountId, recipientId: row.id, email: row.recipient },
            this.deps.unsubscribeKey,
          )
        : null;
    let message: Buffer;
    if (context.mime) {
      const raw =
        p.vars || p.pubsub || p.section
          ? Buffer.from(substitute(context.mime.toString('latin1'), latin1Vars(p)), 'latin1')
          : context.mime;
      message = prependHeaders(raw, { messageId, date: now, listUnsubscribe });
    } else {
      const fromAddress = rules.fixedFromPrefix ? `${rules.fixedFromPrefix}@${domain}` : context.fromAddress;
      message = buildMessage(
        {
          from: formatAddress(fromAddress, context.fromName),
          to: context.individual ? row.recipient : context.toList.join(', ') || null,
          cc: context.individual ? null : context.ccList.join(', ') || null,
          replyTo: context.replyTo ? context.replyTo.split(';').join(', ') : null,
          subject: markSubject(substitute(context.subject, p), rules.adMark, context.emailType),
          messageId,
          date: now,
          listUnsubscribe,
          extra: context.headers,
        },
        {
          ...trackBody(
            {
              html: context.html === null ? null : substitute(context.html, p),
              plain: context.plain === null ? null : substitute(context.plain, p),
            },
            context,
            row,
            this.deps,
          ),
          attachments: context.attachments,
        },
      );
    }
    return this.signer.sign(message, context.accountId, domain, now);
  }

  /** Closes pools nobody used for a minute. */
  private sweep(): void {
    const now = Date.now();
    for (const [key, pool] of this.pools) {
      if (!pool.busy && now - pool.lastUsed > 60_000) {
        this.pools.delete(key);
        void pool.close();
      }
    }
  }
}

/** Raw SMTP bodies are substituted as latin1 text: values go in as their UTF-8 bytes. */
function latin1Vars(p: Personalisation): Personalisation {
  const map = <T extends string | number>(o: Record<string, T> | null) =>
    o
      ? Object.fromEntries(
          Object.entries(o).map(([k, v]) => [k, Buffer.from(String(v), 'utf8').toString('latin1')]),
        )
      : null;
  return { vars: map(p.vars), section: map(p.section), pubsub: map(p.pubsub) };
}

function transportOf(error: unknown, host: string) {
  if (error instanceof SmtpTransportError)
    return { kind: 'transport' as const, code: error.code, message: error.message, host };
  const e = error as NodeJS.ErrnoException;
  return {
    kind: 'transport' as const,
    code: e?.code ?? 'ECONNECTION',
    message: e?.message ?? String(error),
    host,
  };
}

export type { SmtpConnection };

function sendContextOf(context: MessageContext): SendContext {
  return { apiUserId: context.apiUserId, labelId: context.labelId, emailType: context.emailType };
}
