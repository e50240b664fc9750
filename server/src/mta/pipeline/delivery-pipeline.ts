import type { ChannelPipeline, RetrySchedule } from '../../channel/contract.ts';
import { runSteps, type Step } from '../../channel/steps.ts';
import type { Database } from '../../db/database.ts';
import { type DeliverySettings, limitFor } from '../../delivery-settings.ts';
import type { DnsResolver } from '../../lib/dns-resolver.ts';
import { unsubscribeUrl } from '../../lib/unsubscribe-token.ts';
import type { Logger } from '../../logger.ts';
import { type DeliveryOutcome, invalid } from '../outcome/classify.ts';
import { expireDeferral, nextRetry } from '../outcome/retry-schedule.ts';
import type {
  DkimKeys,
  OutboundAddresses,
  PolicyMessage,
  SendContext,
  SendPolicy,
  Suppressed,
  SuppressionCheck,
  TrackingPlans,
} from '../ports.ts';
import { DestinationPool } from '../smtp-client/connection-pool.ts';
import { type SmtpConnection, SmtpTransportError } from '../smtp-client/smtp-connection.ts';
import type { ClaimedRecipient, DeliveryStore, OutcomeRecord } from '../store/delivery-store.ts';
import { encodeVerp } from '../verp.ts';
import { buildMessage, formatAddress, prependHeaders, withPreviewText } from './build.step.ts';
import { CopyBudget, type CopyLease } from './copy-budget.ts';
import {
  bytesForConnection,
  outcomeOfOpenFailure,
  outcomeOfTransaction,
  relayReceived,
} from './deliver.step.ts';
import { DotJournal, type DotVerdict } from './dot-journal.ts';
import { DotMarker } from './dot-marker.ts';
import { type MessageContext, MessageContexts } from './message-context.ts';
import { lengthOf, type MessagePieces, ownedBytes } from './message-pieces.ts';
import { rewriteSubmitted } from './mime-rewrite.ts';
import type { OutcomeWriter } from './outcome-writer.ts';
import { markSubject, type Personalisation, substitute, trackBody } from './render.step.ts';
import { mxNameOf, Router } from './route.step.ts';
import { Signer } from './sign.step.ts';

/**
 * The email channel's pipeline (channel/contract.ts), one claimed recipient at a time, in named
 * steps (channel/steps.ts); each step either lets the attempt go on or ends it:
 *
 *   recover  the message loaded; a row found with the dot mark and no outcome: sent again when
 *            the marking worker's dot journal says the dot never went out, else delivered,
 *            unconfirmed
 *   suppress SuppressionCheck.check → invalid with the list's reason, nothing sent
 *   hold     SendPolicy.holdUntil → held until then (paused queue, do-not-disturb)
 *   route    MX (or the relay) → a pooled connection to the destination
 *   render   %variables%, section, pubsub; AD mark; headers (Message-ID, Date, List-Unsubscribe)
 *   sign     DKIM with the sending domain's key
 *   deliver  MAIL (VERP return path) / RCPT / DATA, dot mark committed before the final dot
 *   outcome  delivered / deferred (retry or, past the lifetime, soft bounce) / invalid, with the
 *            remote reply and a send-log row; final failures go to SuppressionCheck.recordFailure
 *
 * A message without per-recipient differences (broadcast trigger mail) is built and signed once
 * and the bytes reused for each of its recipients; everything else is built per recipient, as
 * pieces that share the stored message's bytes where the copy does not change them
 * (message-pieces.ts). Copies in flight stay within the worker's byte budget (copy-budget.ts):
 * render waits for room before it builds.
 */
export interface PipelineDeps {
  database: Database;
  logger: Logger;
  settings: DeliverySettings;
  resolver: DnsResolver;
  mtaPort: number;
  localName: string;
  publicUrl: string;
  verpSecret: string;
  unsubscribeKey: Buffer;
  /** Signs open-pixel and click URLs; `tracking` says which messages get them and where they point. */
  trackingKey: Buffer;
  tracking: TrackingPlans;
  dkimKeys: DkimKeys;
  suppression: SuppressionCheck;
  policy: SendPolicy;
  /** The dedicated addresses an account's mail leaves from (the implementation keeps them cached). */
  outbound: OutboundAddresses;
  store: DeliveryStore;
  outcomes: OutcomeWriter;
  /** Where this machine's workers keep their dot journals (dot-journal.ts). */
  dotJournalDir: string;
}

/** One recipient on its way through the steps; each step adds what the next ones need. */
interface Attempt {
  row: ClaimedRecipient;
  owner: string;
  started: number;
  /** The message (recover); null when its body is gone. */
  context: MessageContext | null;
  /** The connections to the recipient's destination (route). */
  pool?: DestinationPool;
  /** The account's header rules (render). */
  rules?: Rules;
  /** The message built for this recipient alone (render), or the one its recipients share. */
  rendered?: Rendered;
  shared?: SharedMessage;
  /** The signed bytes (sign). */
  bytes?: MessagePieces;
  /** This attempt's share of the copy budget, from render until the transaction ends. */
  lease?: CopyLease;
  /** The final dot's mark is committed: from here on the message counts as handed over. */
  dotMarked: boolean;
}

/** How a step ends an attempt. */
type Ending =
  /** Recorded as it stands: a recovery, a list, a hold, a handover whose reply was lost. */
  | { write: Partial<OutcomeRecord> & Pick<OutcomeRecord, 'status' | 'countsAsAttempt' | 'at'> }
  /** A delivery outcome, which a deferral turns into a retry or, past the lifetime, a soft bounce. */
  | { outcome: DeliveryOutcome; where: Where | null }
  /** The lease was lost before the dot: the row goes back untouched. */
  | { release: true };

type Where = { mxHost: string; mxIp: string; tls: boolean; outIp: string | null };

/** A built message and the date in its header, which the DKIM signature also covers. */
interface Rendered {
  message: MessagePieces;
  date: Date;
}

/** A message without per-recipient differences: built and signed once, its bytes reused. */
interface SharedMessage {
  rendered: Rendered;
  signed: Promise<MessagePieces> | null;
}

function contextOf(a: Attempt): MessageContext {
  if (!a.context) throw new Error('the recover step did not load the message');
  return a.context;
}

const UNCONFIRMED =
  'delivered (unconfirmed): the message was handed over up to its final dot, but the worker stopped before the reply was recorded; not sent again';
const UNCONFIRMED_LAST =
  'delivered (unconfirmed): the worker stopped right after recording its final dot, which went out unless it stopped in the instant before writing it; not sent again';

type Rules = Awaited<ReturnType<SendPolicy['headerRules']>>;

export class DeliveryPipeline implements ChannelPipeline<ClaimedRecipient> {
  private readonly contexts: MessageContexts;
  private readonly router: Router;
  private readonly signer: Signer;
  private readonly budget: CopyBudget;
  private readonly pools = new Map<string, DestinationPool>();
  private readonly shared = new Map<number, SharedMessage>();
  private readonly retry: RetrySchedule;
  private readonly rules = new Map<string, { at: number; rules: Promise<Rules> }>();
  private readonly dots: DotMarker;
  private readonly journal: DotJournal;
  /** Suppression verdicts of claimed rows, checked per batch in prepare(), taken by process(). */
  private readonly verdicts = new Map<number, Suppressed | null>();
  private readonly sweeper: NodeJS.Timeout;

  private readonly deps: PipelineDeps;

  constructor(deps: PipelineDeps) {
    this.deps = deps;
    // The cached messages may hold as much again as the copies in flight.
    this.contexts = new MessageContexts(deps.database, deps.tracking, deps.settings.copyBudgetBytes);
    this.router = new Router({
      resolver: deps.resolver,
      mtaPort: deps.mtaPort,
      localName: deps.localName,
      timeoutMs: deps.settings.timeoutMs,
      relay: deps.settings.relay,
      relayAllowPrivate: deps.settings.relayAllowPrivate,
    });
    this.signer = new Signer(deps.dkimKeys, deps.logger);
    this.budget = new CopyBudget(deps.settings.copyBudgetBytes);
    this.journal = new DotJournal(deps.dotJournalDir);
    this.dots = new DotMarker(deps.store, this.journal);
    this.retry = (failed, queuedAt, now) => nextRetry(failed, queuedAt, now, deps.settings.retry);
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
    this.journal.close();
  }

  /**
   * The steps, in order. Each looks at the attempt and either lets it go on or ends it; the
   * ending is recorded by finish() (the outcome step). Never rejects: every end is a recorded
   * outcome, or the row is left to its lease.
   */
  private readonly steps: readonly Step<Attempt, Ending>[] = [
    { name: 'recover', run: (a) => this.recover(a) },
    { name: 'suppress', run: (a) => this.suppress(a) },
    { name: 'hold', run: (a) => this.hold(a) },
    { name: 'route', run: (a) => this.routeStep(a) },
    { name: 'render', run: (a) => this.renderStep(a) },
    { name: 'sign', run: (a) => this.signStep(a) },
    { name: 'deliver', run: (a) => this.deliver(a) },
  ];

  async process(row: ClaimedRecipient, owner: string): Promise<void> {
    const attempt: Attempt = { row, owner, started: Date.now(), context: null, dotMarked: false };
    try {
      const { step, outcome } = await runSteps(this.steps, attempt).finally(() => dropCopy(attempt));
      this.deps.logger.debug({ recipientId: row.id, step }, 'delivery step ended the attempt');
      await this.finish(attempt, outcome);
    } catch (error) {
      this.deps.logger.error({ err: error, recipientId: row.id }, 'delivery step failed (a bug)');
      if (attempt.dotMarked) return; // left to its lease: the recovery records it as delivered
      await this.record(
        row,
        owner,
        attempt.started,
        { kind: 'deferred', category: 'other', detail: `internal error: ${(error as Error).message}` },
        null,
      ).catch(() => {});
    }
  }

  /**
   * A row found with its dot mark and no outcome belongs to a worker that died after the mark: when
   * that worker's dot journal says the dot was never written, the message is sent again; when it
   * says it was, or the journal is not on this machine, the message was handed over: delivered,
   * unconfirmed. The one attempt whose entry is the last that worker wrote is delivered,
   * unconfirmed, too, with a reply that says its dot may not have gone out (dot-journal.ts).
   */
  private async recover(a: Attempt): Promise<Ending | undefined> {
    // Loaded by prepare(), unless a run of large messages has pushed it out of the cache since.
    if (!this.contexts.get(a.row.message_id)) await this.contexts.ensure([a.row.message_id]);
    a.context = this.contexts.get(a.row.message_id) ?? null;
    if (!a.context) return { outcome: invalid('other', 'the message body is missing'), where: null };
    const { id, dot_sent_at: markedAt, dot_owner: marker } = a.row;
    if (markedAt === null) return undefined;
    const verdict = this.dotVerdict(marker, id, markedAt);
    if (verdict === 'not written') {
      this.deps.logger.info(
        { recipientId: id },
        'dot marked but never written by a worker that died: sending again',
      );
      return undefined;
    }
    if (verdict === 'last entry') {
      // Sent again, it would arrive twice in every case but the rare one.
      this.deps.logger.warn(
        { recipientId: id, worker: marker },
        'the dot was the last a stopped worker recorded: counted as delivered, but it may not have gone out',
      );
    }
    return {
      write: {
        status: 'delivered',
        countsAsAttempt: true,
        reply: verdict === 'last entry' ? UNCONFIRMED_LAST : UNCONFIRMED,
        mxHost: a.row.mx_host,
        at: Date.now(),
      },
    };
  }

  private dotVerdict(marker: string | null, id: number, markedAt: number): DotVerdict {
    if (marker === null) return 'unknown';
    try {
      return this.journal.verdict(marker, id, markedAt);
    } catch {
      return 'unknown';
    }
  }

  /** On a list (or caught by an interception rule): invalid with the list's reason, nothing sent. */
  private async suppress(a: Attempt): Promise<Ending | undefined> {
    const context = contextOf(a);
    const prefetched = this.verdicts.get(a.row.id);
    this.verdicts.delete(a.row.id);
    const suppressed =
      prefetched !== undefined
        ? prefetched
        : await this.deps.suppression.check(context.accountId, a.row.recipient, sendContextOf(context));
    if (!suppressed) return undefined;
    return {
      write: {
        status: 'invalid',
        countsAsAttempt: false,
        category: suppressed.list,
        reason: suppressed.reason,
        subStatus: suppressed.subStatus,
        reply: suppressed.detail,
        at: Date.now(),
      },
    };
  }

  /** A paused queue or a do-not-disturb window: held until then. */
  private async hold(a: Attempt): Promise<Ending | undefined> {
    const hold = await this.deps.policy.holdUntil(this.policyMessage(contextOf(a), a.row), Date.now());
    if (!hold) return undefined;
    return {
      write: {
        status: 'held',
        countsAsAttempt: false,
        nextAttemptAt: hold.until,
        reason: hold.reason,
        reply: hold.reason,
        at: Date.now(),
      },
    };
  }

  /** MX (or the account's or deployment's relay) to a pool of connections to that destination. */
  private async routeStep(a: Attempt): Promise<Ending | undefined> {
    const context = contextOf(a);
    const dedicated = await this.deps.outbound.addressesFor(context.accountId, context.senderDomain);
    const route = await this.router.route(
      a.row.recipient_domain,
      await this.deps.policy.relayFor(context.accountId),
      // Several dedicated IPs share the account's mail, each recipient always from the same one.
      dedicated.length > 0 ? dedicated[a.row.id % dedicated.length] : undefined,
    );
    if (route.kind === 'failed') {
      const outcome: DeliveryOutcome = route.permanent
        ? invalid('server_unreachable', route.reason)
        : { kind: 'deferred', category: 'server_unreachable', detail: route.reason };
      return { outcome, where: null };
    }
    a.pool = this.pool(route.key, a.row.recipient_domain, route.opener);
    return undefined;
  }

  /**
   * The message for this recipient, or the one a message's recipients share when nothing differs;
   * built once the copy budget has room for it (its size estimated, then settled once built).
   */
  private async renderStep(a: Attempt): Promise<undefined> {
    const context = contextOf(a);
    const rules = await this.headerRules(context.accountId, a.row.recipient_domain);
    a.rules = rules;
    const estimate = estimatedCopy(context);
    if (!this.perRecipient(context, a.row)) {
      a.lease = await this.budget.acquire(context.id, 0, estimate.owned + estimate.shared);
      let shared = this.shared.get(context.id);
      if (!shared) {
        shared = { rendered: this.build(context, a.row, rules, false), signed: null };
        this.shared.set(context.id, shared);
        if (this.shared.size > 2000) this.shared.delete(this.shared.keys().next().value as number);
      }
      a.shared = shared;
      a.lease.settle(0, lengthOf(shared.rendered.message));
      return undefined;
    }
    a.lease = await this.budget.acquire(context.id, estimate.owned, estimate.shared);
    a.rendered = this.build(context, a.row, rules, true);
    a.lease.settle(ownedBytes(a.rendered.message), estimate.shared);
    return undefined;
  }

  /** DKIM with the sending domain's key; a shared message is signed once. */
  private async signStep(a: Attempt): Promise<undefined> {
    const context = contextOf(a);
    const sign = (r: Rendered) =>
      this.signer.sign(r.message, context.accountId, context.senderDomain, r.date);
    if (a.shared) {
      const shared = a.shared;
      if (!shared.signed) {
        shared.signed = sign(shared.rendered);
        shared.signed.catch(() => this.shared.delete(context.id));
      }
      a.bytes = await shared.signed;
    } else {
      const rendered = a.rendered as Rendered;
      a.bytes = await sign(rendered);
      a.lease?.settle(ownedBytes(rendered.message, a.bytes));
    }
    return undefined;
  }

  /** MAIL (VERP return path) / RCPT / DATA on a pooled connection, the dot mark committed before the final dot. */
  private async deliver(a: Attempt): Promise<Ending> {
    const { row, owner } = a;
    const context = contextOf(a);
    const pool = a.pool as DestinationPool;
    const acquired = await pool.acquire(row.lane === 1);
    if ('failure' in acquired) return { outcome: outcomeOfOpenFailure(acquired.failure), where: null };
    const connection = acquired.connection;
    const where = {
      mxHost: mxNameOf(connection),
      mxIp: connection.remoteAddress,
      tls: connection.secure,
      outIp: connection.localAddress,
    };
    if (!connection.secure && (await this.deps.policy.requiresTls(context.accountId, row.recipient_domain))) {
      pool.release(connection, true);
      const detail = `TLS is required for ${row.recipient_domain} by the sender's configuration, but ${where.mxHost} does not offer STARTTLS`;
      return { outcome: { kind: 'deferred', category: 'server_unreachable', detail }, where };
    }
    const from = encodeVerp(row.id, {
      secret: this.deps.verpSecret,
      bounceDomain: a.rules?.mailFromDomain ?? this.deps.settings.bounceDomain,
    });
    try {
      const rendered = (a.shared?.rendered ?? a.rendered) as Rendered;
      const signed = await bytesForConnection(connection, a.bytes as MessagePieces, async () => {
        const resigned = await this.signer.sign(
          rendered.message,
          context.accountId,
          context.senderDomain,
          rendered.date,
          { eightBit: false },
        );
        if (a.rendered) a.lease?.settle(ownedBytes(rendered.message, a.bytes as MessagePieces, resigned));
        return resigned;
      });
      const trace = relayReceived({
        localName: this.deps.localName,
        id: context.scMessageId,
        recipient: row.recipient,
        at: new Date(),
      });
      const result = await connection.send({ from, to: [row.recipient] }, [trace, ...signed], async (dot) => {
        const decision = await this.dots.mark(owner, row.id, dot);
        a.dotMarked = decision === 'sent';
        return decision;
      });
      pool.release(connection, !result.withheld);
      const outcome = outcomeOfTransaction(result);
      // Null: the lease was lost to another worker before the dot, the transaction abandoned.
      return outcome === null ? { release: true } : { outcome, where };
    } catch (error) {
      pool.release(connection, false);
      if (!a.dotMarked) return { outcome: outcomeOfOpenFailure(transportOf(error, where.mxHost)), where };
      // The dot went out and the answer did not come back: the remote side may well have taken
      // the message. Sending it again could deliver it twice; record it as handed over.
      const text = error instanceof Error ? error.message : String(error);
      return {
        write: {
          status: 'delivered',
          countsAsAttempt: true,
          reply: `delivered (unconfirmed): the connection failed after the final dot (${text})`,
          ...where,
          at: Date.now(),
          durationMs: Date.now() - a.started,
        },
      };
    }
  }

  /** The outcome step: writes what a step decided (a delivery outcome through the retry schedule). */
  private async finish(a: Attempt, ending: Ending): Promise<void> {
    if ('release' in ending) {
      await this.deps.store.releaseOne(a.owner, a.row.id).catch(() => {});
      return;
    }
    if ('write' in ending) {
      await this.write(a.row, a.owner, ending.write);
      return;
    }
    await this.record(a.row, a.owner, a.started, ending.outcome, ending.where);
  }

  private async record(
    row: ClaimedRecipient,
    owner: string,
    started: number,
    outcome: DeliveryOutcome,
    where: Where | null,
  ): Promise<void> {
    const at = Date.now();
    const base = { ...(where ?? {}), at, durationMs: at - started, countsAsAttempt: true };
    let final = outcome;
    if (outcome.kind === 'deferred') {
      const retry = this.retry(row.attempts + 1, new Date(row.created_at), new Date(at));
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

  /** A message is built per recipient when anything in it differs between them. */
  private perRecipient(context: MessageContext, row: ClaimedRecipient): boolean {
    return (
      context.individual ||
      context.emailType === 'batch' ||
      context.tracking !== null ||
      context.unsubscribePlaceholder ||
      row.vars !== null ||
      (context.submitted?.variables ?? false)
    );
  }

  private build(context: MessageContext, row: ClaimedRecipient, rules: Rules, personal: boolean): Rendered {
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
    let message: MessagePieces;
    if (context.submitted) {
      const copy = rewriteSubmitted(context.submitted, {
        personalisation: p,
        to: context.individual ? row.recipient : null,
        track: (body) => trackBody(body, context, row, this.deps),
      });
      message = prependHeaders(copy, { messageId, date: now, listUnsubscribe });
    } else {
      const fromAddress = rules.fixedFromPrefix ? `${rules.fixedFromPrefix}@${domain}` : context.fromAddress;
      const built = buildMessage(
        {
          from: formatAddress(fromAddress, context.fromName),
          to: context.individual ? row.recipient : context.toList.join(', ') || null,
          cc: context.individual ? null : context.ccList.join(', ') || null,
          replyTo: context.replyTo ? context.replyTo.split(';').join(', ') : null,
          notifyTo: context.useNotification ? fromAddress : null,
          subject: markSubject(substitute(context.subject, p), rules.adMark, context.emailType),
          messageId,
          date: now,
          listUnsubscribe,
          extra: context.headers,
        },
        {
          ...trackBody(
            {
              html:
                context.html === null
                  ? null
                  : withPreviewText(substitute(context.html, p), context.contentSummary),
              plain: context.plain === null ? null : substitute(context.plain, p),
            },
            context,
            row,
            this.deps,
          ),
          attachments: context.attachments,
        },
      );
      message = [built];
    }
    return { message, date: now };
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

/** The attempt's copy is done with: its budget goes back, and its bytes can be collected. */
function dropCopy(a: Attempt): void {
  a.lease?.release();
  a.rendered = undefined;
  a.shared = undefined;
  a.bytes = undefined;
}

/**
 * What a copy of the message will hold, before it is built: the stored message of SMTP mail
 * (shared by its copies) and, owned by each copy, about twice the text it may rewrite (tracked
 * links and re-encoding make it grow); for API mail, its text and its attachments in base64.
 */
function estimatedCopy(context: MessageContext): { owned: number; shared: number } {
  const submitted = context.submitted;
  if (submitted) {
    const text = submitted.leaves.reduce((sum, leaf) => sum + leaf.bodyEnd - leaf.bodyStart, 0);
    return { owned: 2 * (submitted.bodyStart + text) + 4096, shared: submitted.bytes.length };
  }
  const text = (context.html?.length ?? 0) + (context.plain?.length ?? 0);
  const files = context.attachments.reduce((sum, a) => sum + a.content.length, 0);
  return { owned: 2 * text + Math.ceil((files * 4) / 3) + 4096, shared: 0 };
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
