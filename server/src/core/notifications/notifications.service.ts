import os from 'node:os';
import { AppError } from '@herald/shared';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { type ComposedMail, composeMail, systemMessageId } from '../../lib/compose-mail.ts';
import type { Logger } from '../../logger.ts';
import { QUEUES } from '../../queue/names.ts';
import type { QueueBackend } from '../../queue/queue.ts';
import type { OpenCarrier, SmsCarrier } from '../../sms/ports.ts';
import * as repo from './notifications.repo.ts';
import { SmsReceipts } from './sms-receipts.ts';

/**
 * Herald's own channels, for what the accounts features send (activation and password-reset
 * mail, verification codes). Sending writes a system_messages row and enqueues a job carrying
 * its id; the job (worker/jobs/deliver-system-*.job.ts) calls back into deliverEmail/deliverSms,
 * which run one attempt and record its outcome on the row, so an operator can always read what
 * became of a message and why. Mail goes through Herald's own MTA (MX look-up, SMTP to the
 * recipient's server), SMS through the configured carrier's SMPP session, opened on first use.
 */
export type SystemMessageStatus = repo.SystemMessageStatus;

export interface SystemMessage {
  id: number;
  channel: 'email' | 'sms';
  recipient: string;
  subject: string | null;
  body: string;
  status: SystemMessageStatus;
  reason: string | null;
  attempts: number;
  remoteId: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface RetryPolicy {
  maxAttempts: number;
  /** Base of the exponential backoff: the n-th retry waits backoffMs × 2^(n−1). */
  backoffMs: number;
}

/** About an hour of tries: retries after 30 s, 1, 2, 4, 8, 16 and 32 minutes. */
export const SYSTEM_MAIL_RETRY: RetryPolicy = { maxAttempts: 8, backoffMs: 30_000 };
/** A verification code is stale within minutes, so SMS retries are quicker and fewer. */
export const SYSTEM_SMS_RETRY: RetryPolicy = { maxAttempts: 6, backoffMs: 5_000 };

export const SYSTEM_MAIL_JOB = 'mail.deliver-system-mail';
export const SYSTEM_SMS_JOB = 'sms.deliver-system-sms';

/** The job payload: the row, and how many attempts the job was given (the last one gives up). */
export interface SystemDeliveryPayload {
  id: number;
  maxAttempts: number;
}

export interface AttemptResult {
  status: SystemMessageStatus;
  reason: string;
}

/** One attempt at one system mail, as the MTA's direct delivery reports it (compose.ts wires it). */
export type SystemMailTransport = (mail: ComposedMail) => Promise<SystemMailOutcome>;

export interface SystemMailOutcome {
  kind: 'delivered' | 'deferred' | 'bounced';
  /** The remote server's own words, or why nobody was reached. */
  reply: string;
  host: string | null;
}

export interface NotificationsDeps {
  database: Database;
  mailTransport: SystemMailTransport;
  /** The system SMS carrier (compose.ts opens the configured one); none when SMS is not set up. */
  openCarrier: OpenCarrier | undefined;
  queue: QueueBackend;
  config: Config;
  logger: Logger;
  mailRetry?: RetryPolicy;
  smsRetry?: RetryPolicy;
}

const FINAL: readonly SystemMessageStatus[] = ['delivered', 'bounced', 'failed'];

export class NotificationsService {
  private readonly deps: NotificationsDeps;
  private readonly log: Logger;
  private readonly hostname: string;
  private readonly receipts: SmsReceipts;
  private carrier: SmsCarrier | undefined;

  constructor(deps: NotificationsDeps) {
    this.deps = deps;
    this.log = deps.logger.child({ component: 'notifications' });
    this.hostname = deps.config.hostname ?? os.hostname();
    this.receipts = new SmsReceipts(deps.database, this.log);
  }

  /** True when a system SMS carrier is configured, so sendSms can send. */
  get smsConfigured(): boolean {
    return this.deps.openCarrier !== undefined;
  }

  async sendEmail(mail: {
    to: string;
    subject: string;
    text: string;
    html?: string;
  }): Promise<{ id: number }> {
    const message = { subject: mail.subject, body: mail.text, html: mail.html ?? null };
    return this.enqueue(
      'email',
      mail.to.trim(),
      message,
      SYSTEM_MAIL_JOB,
      this.deps.mailRetry ?? SYSTEM_MAIL_RETRY,
    );
  }

  async sendSms(sms: { to: string; text: string }): Promise<{ id: number }> {
    if (!this.deps.openCarrier) throw new AppError('SMS_CARRIER_NOT_CONFIGURED');
    const message = { subject: null, body: sms.text, html: null };
    return this.enqueue(
      'sms',
      sms.to.trim(),
      message,
      SYSTEM_SMS_JOB,
      this.deps.smsRetry ?? SYSTEM_SMS_RETRY,
    );
  }

  async get(id: number): Promise<SystemMessage | undefined> {
    const row = await repo.findMessage(this.deps.database, id);
    if (!row) return undefined;
    return {
      id: row.id,
      channel: row.channel,
      recipient: row.recipient,
      subject: row.subject,
      body: row.body,
      status: row.status,
      reason: row.reason,
      attempts: row.attempts,
      remoteId: row.remote_id,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }

  /** One delivery attempt of a system mail; `deferred` means the job should try again later. */
  async deliverEmail(payload: SystemDeliveryPayload): Promise<AttemptResult | undefined> {
    const row = await repo.findMessage(this.deps.database, payload.id);
    if (row?.channel !== 'email' || FINAL.includes(row.status)) return undefined;
    const { config } = this.deps;
    const composed = await composeMail({
      from: config.systemFrom,
      to: row.recipient,
      subject: row.subject ?? '',
      text: row.body,
      html: row.html,
      messageId: systemMessageId(row.id, row.created_at, this.hostname),
      date: new Date(row.created_at),
    });
    // DKIM signing of system mail goes here (the delivery-engine issue adds the signer).
    const outcome = await this.deps.mailTransport(composed);
    return this.record(row.id, row.attempts + 1, payload.maxAttempts, outcome.kind, describeOutcome(outcome));
  }

  /** One submit of a system SMS to the carrier; its delivery receipt settles it later. */
  async deliverSms(payload: SystemDeliveryPayload, signal?: AbortSignal): Promise<AttemptResult | undefined> {
    const row = await repo.findMessage(this.deps.database, payload.id);
    if (row?.channel !== 'sms' || row.status === 'sent' || FINAL.includes(row.status)) return undefined;
    const attempts = row.attempts + 1;
    const carrier = this.smsCarrier();
    if (!carrier)
      return this.record(row.id, attempts, payload.maxAttempts, 'failed', 'no SMS carrier is configured');
    const outcome = await carrier.submit(
      { to: row.recipient, from: this.deps.config.smsSource, text: row.body },
      signal,
    );
    if (outcome.kind === 'accepted') {
      const parts = outcome.messageIds.length;
      const reason = `accepted by the carrier (${parts} part${parts > 1 ? 's' : ''}), awaiting the delivery receipt`;
      await this.receipts.recordSubmitted(row.id, { remoteIds: outcome.messageIds, reason, attempts });
      return { status: 'sent', reason };
    }
    const status = outcome.permanent ? 'failed' : 'deferred';
    return this.record(row.id, attempts, payload.maxAttempts, status, outcome.reason);
  }

  /** Closes the carrier session; the queue and database are closed by the core. */
  async close(): Promise<void> {
    await this.carrier?.close();
    this.carrier = undefined;
  }

  private async enqueue(
    channel: 'email' | 'sms',
    recipient: string,
    message: { subject: string | null; body: string; html: string | null },
    job: string,
    retry: RetryPolicy,
  ): Promise<{ id: number }> {
    const { database, queue } = this.deps;
    const id = await repo.insertMessage(database, { channel, recipient, ...message }, Date.now());
    const payload: SystemDeliveryPayload = { id, maxAttempts: retry.maxAttempts };
    try {
      await queue.enqueue(channel === 'email' ? QUEUES.mail : QUEUES.sms, job, payload, retry);
    } catch (error) {
      await repo.setStatus(database, id, 'failed', `could not be queued: ${String(error)}`, Date.now());
      throw error;
    }
    return { id };
  }

  private async record(
    id: number,
    attempts: number,
    maxAttempts: number,
    status: SystemMessageStatus,
    reason: string,
  ): Promise<AttemptResult> {
    const result =
      status === 'deferred' && attempts >= maxAttempts
        ? { status: 'failed' as const, reason: `gave up after ${attempts} attempts: ${reason}` }
        : { status, reason };
    await repo.recordAttempt(this.deps.database, id, { ...result, attempts }, Date.now());
    if (result.status !== 'delivered')
      this.log.info({ id, attempts, ...result }, 'system message not delivered');
    return result;
  }

  private smsCarrier(): SmsCarrier | undefined {
    if (!this.deps.openCarrier) return undefined;
    this.carrier ??= this.deps.openCarrier(this.receipts.onReceipt);
    return this.carrier;
  }
}

/** The reason stored on the row: which server said what. */
function describeOutcome(outcome: SystemMailOutcome): string {
  return outcome.host && outcome.kind !== 'deferred' ? `${outcome.host}: ${outcome.reply}` : outcome.reply;
}
