import os from 'node:os';
import path from 'node:path';
import { WorkLoop } from '../../channel/work-loop.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { verpSecretOf } from '../../delivery-settings.ts';
import { createResolver, type DnsResolver } from '../../lib/dns-resolver.ts';
import { trackingKey } from '../../lib/tracking-token.ts';
import { unsubscribeKey } from '../../lib/unsubscribe-token.ts';
import type { Logger } from '../../logger.ts';
import { parseBounce } from '../outcome/dsn.ts';
import { appendAttempt, findBounceTarget, recordLateBounce } from '../outcome/late-bounce.repo.ts';
import type { DkimKeys, OutboundAddresses, SendPolicy, SuppressionCheck, TrackingPlans } from '../ports.ts';
import type { ClaimedRecipient, DeliveryStore } from '../store/delivery-store.ts';
import { KyselyDeliveryStore } from '../store/kysely-delivery-store.ts';
import { SqliteDeliveryStore } from '../store/sqlite-delivery-store.ts';
import { decodeVerp, type VerpOptions } from '../verp.ts';
import { DeliveryPipeline } from './delivery-pipeline.ts';
import { OutcomeWriter } from './outcome-writer.ts';

/**
 * The delivery engine as the core exposes it: `start()` runs the delivery loop in a worker
 * process; `acceptsBounceAddress` and `recordBounce` serve the inbound MX, which attributes
 * asynchronous bounces to their recipient through the VERP return path.
 */
export interface DeliveryDeps {
  database: Database;
  config: Config;
  logger: Logger;
  secretKey: Buffer;
  suppression: SuppressionCheck;
  policy: SendPolicy;
  dkimKeys: DkimKeys;
  trackingPlans: TrackingPlans;
  /** The accounts' dedicated IPs; none when absent. */
  outbound?: OutboundAddresses;
  resolver?: DnsResolver;
}

export type BounceResult =
  | { kind: 'recorded'; recipientId: number; status: string; detail: string }
  | { kind: 'noted'; recipientId: number; detail: string }
  | { kind: 'ignored'; reason: string };

export class DeliveryService {
  private readonly verpSecret: string;
  private readonly store: DeliveryStore;
  private readonly outcomes: OutcomeWriter;
  private pipeline: DeliveryPipeline | undefined;
  private loop: WorkLoop<ClaimedRecipient> | undefined;

  private readonly deps: DeliveryDeps;

  constructor(deps: DeliveryDeps) {
    this.deps = deps;
    this.verpSecret = verpSecretOf(deps.config.delivery, deps.secretKey);
    const database = deps.config.database;
    // SQLite: claims, dot marks and outcomes are written on their own thread (see the worker).
    this.store =
      deps.database.dialect === 'sqlite' && database.kind === 'sqlite' && database.file !== ':memory:'
        ? new SqliteDeliveryStore(database.file)
        : new KyselyDeliveryStore(deps.database);
    this.outcomes = new OutcomeWriter(this.store);
  }

  /** Starts this process's delivery loop (worker role). */
  start(): WorkLoop<ClaimedRecipient> {
    if (this.loop) return this.loop;
    const { config } = this.deps;
    this.pipeline = new DeliveryPipeline({
      database: this.deps.database,
      logger: this.deps.logger.child({ component: 'delivery' }),
      settings: config.delivery,
      resolver: this.deps.resolver ?? createResolver(config.dnsServers),
      mtaPort: config.mtaPort,
      localName: config.hostname ?? os.hostname(),
      publicUrl: config.publicUrl,
      verpSecret: this.verpSecret,
      unsubscribeKey: unsubscribeKey(this.deps.secretKey),
      trackingKey: trackingKey(this.deps.secretKey),
      tracking: this.deps.trackingPlans,
      dkimKeys: this.deps.dkimKeys,
      suppression: this.deps.suppression,
      policy: this.deps.policy,
      outbound: this.deps.outbound ?? { addressesFor: async () => [] },
      store: this.store,
      outcomes: this.outcomes,
      // Beside an embedded database every process using it shares the journals; otherwise in
      // the data directory, which a restarted worker keeps.
      dotJournalDir:
        config.database.kind === 'sqlite' && config.database.file !== ':memory:'
          ? `${config.database.file}-dots`
          : path.join(config.dataDir, 'delivery-dots'),
    });
    this.loop = new WorkLoop(
      'delivery',
      this.pipeline,
      this.store,
      config.delivery,
      this.deps.logger.child({ component: 'delivery' }),
    );
    this.loop.start();
    return this.loop;
  }

  /** Claims at once instead of at the next poll (in-process; e.g. after a group commit). */
  wake(): void {
    this.loop?.wake();
  }

  async stop(timeoutMs: number): Promise<void> {
    await this.loop?.close(timeoutMs);
    await this.pipeline?.close();
    await this.store.close();
    this.loop = undefined;
    this.pipeline = undefined;
  }

  /** VERP options for an address: any domain, as long as the tag is ours (mail_from domains too). */
  private verpFor(address: string): VerpOptions {
    const bare = address.trim().replace(/^<|>$/g, '');
    return { secret: this.verpSecret, bounceDomain: bare.slice(bare.lastIndexOf('@') + 1) };
  }

  acceptsBounceAddress(address: string): boolean {
    return decodeVerp(address, this.verpFor(address)).kind === 'recipient';
  }

  /**
   * An asynchronous bounce: a failure report makes the recipient a soft bounce with the report's
   * reason (a delivered recipient included: the remote side accepted, then gave up), a "delayed"
   * report is only noted in the send log. Either way the report becomes a send-log row.
   */
  async recordBounce(raw: Buffer, envelopeTo: string[]): Promise<BounceResult> {
    const address = envelopeTo.find((a) => this.acceptsBounceAddress(a));
    if (!address) return { kind: 'ignored', reason: 'no VERP recipient' };
    const parsed = parseBounce(raw, { envelopeTo: [address], verp: this.verpFor(address) });
    if (parsed.kind !== 'bounce' || parsed.recipientId === null) {
      return { kind: 'ignored', reason: 'not a delivery report' };
    }
    const row = await findBounceTarget(this.deps.database, parsed.recipientId);
    if (!row) return { kind: 'ignored', reason: 'recipient no longer exists' };
    const report = parsed.recipients.find((r) => r.action === 'failed') ?? parsed.recipients[0];
    if (!report) return { kind: 'ignored', reason: 'report names no recipient' };
    const outcome = report.outcome;
    const at = Date.now();
    const attempt = Number(row.attempts) + 1;
    const mxHost = report.remoteMta ?? parsed.reportingMta;
    if (outcome.kind !== 'soft_bounce' && outcome.kind !== 'invalid') {
      await appendAttempt(this.deps.database, {
        recipientId: Number(row.id),
        accountId: Number(row.account_id),
        owner: null,
        status: outcome.kind === 'delivered' ? 'delivered' : 'deferred',
        attempt,
        countsAsAttempt: false,
        at,
        nextAttemptAt: null,
        category: outcome.kind === 'deferred' ? outcome.category : null,
        reason: null,
        subStatus: null,
        reply: `report (${report.action}): ${outcome.detail}`,
        mxHost,
        mxIp: null,
        tls: false,
        durationMs: null,
      });
      return { kind: 'noted', recipientId: Number(row.id), detail: outcome.detail };
    }
    if (!['delivered', 'sending', 'deferred', 'requested', 'held'].includes(row.status)) {
      return { kind: 'ignored', reason: `recipient is already ${row.status}` };
    }
    const softClass = outcome.kind === 'soft_bounce' ? outcome.class : outcome.reason;
    await recordLateBounce(this.deps.database, {
      recipientId: Number(row.id),
      accountId: Number(row.account_id),
      attempt,
      at,
      category: outcome.category,
      reason: softClass,
      subStatus: outcome.subStatus,
      reply: outcome.detail,
      mxHost,
    });
    await this.deps.suppression
      .recordFailure(Number(row.account_id), row.recipient, {
        category: outcome.category,
        kind: 'soft_bounce',
        detail: outcome.detail,
        at,
      })
      .catch((error: unknown) =>
        this.deps.logger.error({ err: error }, 'recording a bounce on the lists failed'),
      );
    return { kind: 'recorded', recipientId: Number(row.id), status: 'soft_bounce', detail: outcome.detail };
  }
}
