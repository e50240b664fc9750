import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Logger } from '../logger.ts';
import type { ChannelPipeline, ChannelStore } from './contract.ts';

/** How a loop claims: the delivery settings (HERALD_DELIVERY_*) for email. */
export interface LoopSettings {
  /** Items in flight at most. */
  concurrency: number;
  /** Items per claim at most. */
  batchSize: number;
  /** How long an idle loop waits before it claims again. */
  pollMs: number;
  leaseMs: number;
}

/**
 * The work loop of one worker process, one per channel (email: the delivery loop).
 *
 * How it fits the queue backend: it does not use it. The channel's work table already is the
 * durable queue (for email message_recipients, 0016's decision: the row is written in the same
 * transaction that accepts the message), so a job per message, or even a "wake" job per group
 * commit, would be a second store to keep in step. Instead every worker process polls the table
 * with one indexed claim query: at once again while claims come back non-empty and there is room
 * in flight, every poll interval (HERALD_DELIVERY_POLL_MS, 200 ms) when idle, and at once when
 * `wake()` is called in-process (role `all`). Claims carry a lease the loop renews every third of
 * its length, so a killed worker's items come back after at most one lease. This works the same
 * on role `all` over SQLite and on separate api/worker processes over PostgreSQL + Redis, since
 * the database is what they share; Redis is not needed for delivery.
 */
export class WorkLoop<Work extends { id: number }> {
  readonly owner = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private running = false;
  private inflight = 0;
  private full = false;
  private readonly tasks = new Set<Promise<void>>();
  /** Rows being worked on: the only ones whose lease is renewed. */
  private readonly held = new Set<number>();
  private wakeUp: (() => void) | null = null;
  private renewTimer: NodeJS.Timeout | undefined;
  private loop: Promise<void> | undefined;

  private readonly name: string;

  private readonly pipeline: ChannelPipeline<Work>;

  private readonly claims: ChannelStore<Work, unknown>;

  private readonly settings: LoopSettings;
  /** The least room a busy loop claims for (see run()). */
  private readonly refill: number;

  private readonly logger: Logger;

  constructor(
    name: string,
    pipeline: ChannelPipeline<Work>,
    claims: ChannelStore<Work, unknown>,
    settings: LoopSettings,
    logger: Logger,
  ) {
    this.name = name;
    this.pipeline = pipeline;
    this.claims = claims;
    this.settings = settings;
    this.logger = logger;
    this.refill = Math.max(1, Math.min(settings.batchSize, Math.floor(settings.concurrency / 8)));
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.renewTimer = setInterval(
      () => {
        this.claims
          .renew(this.owner, [...this.held], Date.now(), this.settings.leaseMs)
          .catch((error: unknown) => {
            this.logger.warn({ err: (error as Error).message }, `${this.name} lease renewal failed`);
          });
      },
      Math.max(50, Math.floor(this.settings.leaseMs / 3)),
    );
    this.loop = this.run();
    this.logger.info(
      { owner: this.owner, concurrency: this.settings.concurrency },
      `${this.name} loop started`,
    );
  }

  wake(): void {
    this.wakeUp?.();
  }

  /** Stops claiming, waits for messages in flight (up to timeoutMs), hands the rest back. */
  async close(timeoutMs: number): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wake();
    await this.loop;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.tasks]),
      new Promise((r) => {
        timer = setTimeout(r, timeoutMs);
      }),
    ]);
    // The deadline must not keep a stopped process alive for the rest of its length.
    clearTimeout(timer);
    clearInterval(this.renewTimer);
    await this.pipeline.flush();
    await this.claims.release(this.owner).catch(() => {});
  }

  private async run(): Promise<void> {
    while (this.running) {
      const room = this.settings.concurrency - this.inflight;
      // A busy loop tops up in batches of at least an eighth of its concurrency: each claim costs
      // a write and the batch's context, suppression and tracking queries, and claiming a few
      // rows every time one finishes spent that per message. An idle loop claims whatever there is.
      if (room <= 0 || (this.inflight > 0 && room < this.refill)) {
        this.full = true;
        await this.pause(this.settings.pollMs);
        this.full = false;
        continue;
      }
      let claimed: Work[] = [];
      try {
        claimed = await this.claims.claim(
          this.owner,
          Math.min(this.settings.batchSize, room),
          Date.now(),
          this.settings.leaseMs,
        );
        if (claimed.length > 0) await this.pipeline.prepare(claimed);
      } catch (error) {
        this.logger.error({ err: error }, `${this.name}: claiming failed`);
        // Claimed but not started (their messages could not be loaded): hand them back at once
        // rather than leaving them to their lease.
        const ids = claimed.map((r) => r.id);
        if (ids.length > 0) await this.claims.releaseIds(this.owner, ids).catch(() => {});
        await this.pause(this.settings.pollMs);
        continue;
      }
      if (claimed.length === 0) {
        await this.pause(this.settings.pollMs);
        continue;
      }
      for (const row of claimed) {
        this.inflight += 1;
        this.held.add(row.id);
        const task = this.pipeline.process(row, this.owner).finally(() => {
          this.inflight -= 1;
          this.held.delete(row.id);
          this.tasks.delete(task);
          if (this.full) this.wake();
        });
        this.tasks.add(task);
      }
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const self = this;
      function done() {
        clearTimeout(timer);
        if (self.wakeUp === done) self.wakeUp = null;
        resolve();
      }
      this.wakeUp = done;
    });
  }
}
