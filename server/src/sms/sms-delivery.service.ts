import type { LoopSettings } from '../channel/work-loop.ts';
import { WorkLoop } from '../channel/work-loop.ts';
import type { Database } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import { CarrierPool } from './carrier-pool.ts';
import { OutcomeBatch } from './pipeline/outcome-batch.ts';
import { SmsPipeline } from './pipeline/sms-pipeline.ts';
import {
  type CarrierDirectory,
  type DeliveryReceipt,
  describeReceipt,
  type SenderRules,
  type SmsInterception,
  type SmsReplies,
} from './ports.ts';
import { receiptStatusCode } from './receipt-codes.ts';
import { type ClaimedSms, type ReceiptRecord, type SmsOutcome, SmsStore } from './store/sms-store.ts';

export interface SmsDeliveryDeps {
  database: Database;
  directory: CarrierDirectory;
  interception: SmsInterception;
  /** Where handsets' replies go; without it they are logged and dropped. */
  replies?: SmsReplies;
  /** The sender id each country takes (international SMS); the carrier's own when absent. */
  senders?: SenderRules;
  logger: Logger;
  settings: LoopSettings;
  now?: () => number;
  /** How long a submitted message waits for its receipt (product-spec §4: 96 hours). */
  receiptWaitMs?: number;
  /** How often the receipt deadline is checked. */
  sweepMs?: number;
}

/** Receipts whose part is not known yet are tried again this often, this many times. */
const UNKNOWN_RECEIPT_RETRY_MS = 1000;
const UNKNOWN_RECEIPT_TRIES = 30;

/**
 * The SMS channel in a worker process: the work loop over `sms_messages`, the carrier sessions
 * and their receipts. A receipt is written only after every outcome this worker has queued, so
 * a carrier quick enough to report before the submit's own row is written still finds its part;
 * one about a part no row knows (a receipt for another worker's submit that reconnected here)
 * is kept and tried again for half a minute. Messages without a final receipt after 96 hours
 * fail with "no receipt".
 */
export class SmsDeliveryService {
  private readonly store: SmsStore;
  private readonly outcomes: OutcomeBatch<SmsOutcome>;
  private readonly receipts: OutcomeBatch<ReceiptRecord & { tries: number }>;
  private readonly pool: CarrierPool;
  private readonly pipeline: SmsPipeline;
  private loop: WorkLoop<ClaimedSms> | undefined;
  private sweeper: NodeJS.Timeout | undefined;
  private readonly deps: SmsDeliveryDeps;
  private readonly now: () => number;

  constructor(deps: SmsDeliveryDeps) {
    this.deps = deps;
    this.now = deps.now ?? Date.now;
    const log = deps.logger;
    this.store = new SmsStore(deps.database);
    this.outcomes = new OutcomeBatch(
      (batch) => this.store.writeOutcomes(batch),
      (error) => log.error({ err: error }, 'writing SMS outcomes failed; retrying'),
    );
    this.receipts = new OutcomeBatch(
      (batch) => this.writeReceipts(batch),
      (error) => log.error({ err: error }, 'writing SMS receipts failed; retrying'),
    );
    const replies = deps.replies;
    this.pool = new CarrierPool(
      deps.directory,
      (carrierId, receipt) => this.onReceipt(carrierId, receipt),
      log,
      {
        onReply:
          replies &&
          ((reply) =>
            void replies.received(reply).catch((error: unknown) => {
              log.error({ err: error, carrierId: reply.carrierId }, 'recording an SMS reply failed');
            })),
      },
    );
    this.pipeline = new SmsPipeline(this.pool, deps.interception, this.outcomes, log, this.now, deps.senders);
  }

  start(): void {
    if (this.loop) return;
    this.loop = new WorkLoop('sms', this.pipeline, this.store, this.deps.settings, this.deps.logger);
    this.loop.start();
    this.sweeper = setInterval(() => {
      this.sweep().catch((error: unknown) =>
        this.deps.logger.error({ err: error }, 'SMS receipt deadline sweep failed'),
      );
    }, this.deps.sweepMs ?? 60_000);
    this.sweeper.unref();
  }

  /** Claims at once (a request was just accepted in this process). */
  wake(): void {
    this.loop?.wake();
  }

  /** Fails the messages whose receipt is overdue; answers how many. */
  async sweep(): Promise<number> {
    const now = this.now();
    return this.store.expireWaiting(now - (this.deps.receiptWaitMs ?? 96 * 3600_000), now);
  }

  async stop(timeoutMs = 10_000): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    await this.loop?.close(timeoutMs);
    this.loop = undefined;
    await this.outcomes.flush();
    await this.receipts.flush();
    await this.pool.close();
  }

  private onReceipt(carrierId: number, receipt: DeliveryReceipt): void {
    if (!receipt.final) return;
    this.receipts.add({
      carrierId,
      carrierMessageId: receipt.messageId,
      statusCode: receiptStatusCode(receipt),
      reason: describeReceipt(receipt),
      at: this.now(),
      tries: 0,
    });
  }

  private async writeReceipts(batch: (ReceiptRecord & { tries: number })[]): Promise<void> {
    await this.outcomes.flush();
    const applied = await this.store.applyReceipts(batch);
    if (applied.failed.length > 0) await this.deps.interception.carrierFailed(applied.failed);
    const unknown = applied.unknown as (ReceiptRecord & { tries: number })[];
    for (const receipt of unknown) {
      if (receipt.tries + 1 >= UNKNOWN_RECEIPT_TRIES) {
        this.deps.logger.warn(
          { carrierId: receipt.carrierId, carrierMessageId: receipt.carrierMessageId },
          'a receipt about a part no message knows was dropped',
        );
        continue;
      }
      setTimeout(
        () => this.receipts.add({ ...receipt, tries: receipt.tries + 1 }),
        UNKNOWN_RECEIPT_RETRY_MS,
      ).unref();
    }
  }
}
