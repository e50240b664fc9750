import type { Database } from '../../db/database.ts';
import type { Logger } from '../../logger.ts';
import { type DeliveryReceipt, describeReceipt } from '../../sms/ports.ts';
import * as repo from './notifications.repo.ts';

const KEEP_UNMATCHED_MS = 10 * 60_000;

/**
 * Turns carrier delivery receipts into the status of system SMS. A message is delivered once
 * every part is, and failed as soon as one part is. A receipt can overtake the write of the ids
 * it refers to (the carrier answers the submit and the receipt follows within milliseconds, while
 * the job is still recording), so an unmatched receipt is kept a while and applied when its id
 * is recorded; receipts and recordings run one at a time so neither slips between the other's
 * read and write.
 */
export class SmsReceipts {
  private readonly database: Database;
  private readonly log: Logger;
  private readonly unmatched = new Map<string, { receipt: DeliveryReceipt; at: number }>();
  private chain: Promise<unknown> = Promise.resolve();

  constructor(database: Database, log: Logger) {
    this.database = database;
    this.log = log;
  }

  /** The carrier's callback: never rejects, a failure is logged. */
  readonly onReceipt = (receipt: DeliveryReceipt): void => {
    this.serial(() => this.apply(receipt)).catch((error: unknown) =>
      this.log.error({ err: error, messageId: receipt.messageId }, 'recording an SMS receipt failed'),
    );
  };

  /** Records accepted parts, then applies receipts that arrived for them first. */
  recordSubmitted(
    id: number,
    submitted: { remoteIds: string[]; reason: string; attempts: number },
  ): Promise<void> {
    return this.serial(async () => {
      await repo.recordSubmitted(this.database, id, submitted, Date.now());
      for (const remoteId of submitted.remoteIds) {
        const early = this.unmatched.get(remoteId);
        if (!early) continue;
        this.unmatched.delete(remoteId);
        await this.apply(early.receipt);
      }
    });
  }

  private async apply(receipt: DeliveryReceipt): Promise<void> {
    const now = Date.now();
    const part = await repo.findPartByRemoteId(this.database, receipt.messageId);
    if (!part) {
      for (const [id, entry] of this.unmatched)
        if (now - entry.at > KEEP_UNMATCHED_MS) this.unmatched.delete(id);
      this.unmatched.set(receipt.messageId, { receipt, at: now });
      return;
    }
    if (!receipt.final) return;
    const reason = describeReceipt(receipt);
    await repo.setPartStatus(this.database, part.id, receipt.delivered ? 'delivered' : 'failed', reason, now);
    const message = await repo.findMessage(this.database, part.message_id);
    if (message?.status !== 'sent') return;
    const parts = await repo.listParts(this.database, part.message_id);
    const failed = parts.find((p) => p.status === 'failed');
    if (failed) {
      const which = parts.length > 1 ? ` (part ${failed.seq}/${parts.length})` : '';
      await repo.setStatus(
        this.database,
        message.id,
        'failed',
        `carrier receipt: ${failed.reason}${which}`,
        now,
      );
    } else if (parts.every((p) => p.status === 'delivered')) {
      await repo.setStatus(this.database, message.id, 'delivered', `carrier receipt: ${reason}`, now);
    }
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.chain.then(task, task);
    this.chain = run.catch(() => undefined);
    return run;
  }
}
