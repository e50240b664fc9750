import type { DestinationLimit } from '../../delivery-settings.ts';
import { type SmtpConnection, SmtpRefusal, SmtpTransportError } from './smtp-connection.ts';

/**
 * Pooled connections per destination (a receiving domain, or the relay): at most
 * `limit.connections` open at once, reused for up to `limit.messagesPerConnection` messages,
 * and at most `limit.messagesPerSecond` transactions started per second (spaced evenly, so the
 * receiving side sees a steady rate). Limits are per worker process: with several workers the
 * operator divides the rate by their number.
 *
 * When opening a connection fails, everyone waiting for one gets the same failure at once: they
 * were headed to the same servers, and retrying each in turn would hammer a dead destination.
 *
 * Waiting is first come, first served, except that a bulk message (a list task's) lets every
 * transactional one waiting pass it: a transactional mail waits for a connection behind other
 * transactional mail only, never behind a list's backlog.
 */
export type OpenFailure =
  | { kind: 'transport'; code: string; message: string; host: string | null }
  | { kind: 'refused'; code: number; text: string; host: string | null };

export type Opener = () => Promise<{ connection: SmtpConnection } | { failure: OpenFailure }>;

interface Waiter {
  resolve(value: { connection: SmtpConnection } | { failure: OpenFailure }): void;
  bulk: boolean;
}

export class DestinationPool {
  private readonly idle: SmtpConnection[] = [];
  private readonly waiters: Waiter[] = [];
  private open = 0;
  private nextStart = 0;
  private closed = false;
  lastUsed = Date.now();

  readonly key: string;

  private readonly limit: DestinationLimit;

  private readonly opener: Opener;

  constructor(key: string, limit: DestinationLimit, opener: Opener) {
    this.key = key;

    this.limit = limit;

    this.opener = opener;
  }

  get busy(): boolean {
    return this.open > this.idle.length || this.waiters.length > 0;
  }

  async acquire(bulk = false): Promise<{ connection: SmtpConnection } | { failure: OpenFailure }> {
    this.lastUsed = Date.now();
    await this.pace();
    while (this.idle.length > 0) {
      const connection = this.idle.pop() as SmtpConnection;
      if (connection.alive) return { connection };
      this.open -= 1;
    }
    if (this.open < this.limit.connections) return this.openOne();
    return new Promise((resolve) => {
      const waiter = { resolve, bulk };
      if (bulk) return void this.waiters.push(waiter);
      const firstBulk = this.waiters.findIndex((w) => w.bulk);
      this.waiters.splice(firstBulk < 0 ? this.waiters.length : firstBulk, 0, waiter);
    });
  }

  /** Back to the pool, or closed when it failed or served its share of messages. */
  release(connection: SmtpConnection, reusable: boolean): void {
    this.lastUsed = Date.now();
    const keep =
      reusable && connection.alive && !this.closed && connection.used < this.limit.messagesPerConnection;
    if (!keep) {
      this.open -= 1;
      if (connection.alive) void connection.quit();
      const waiter = this.waiters.shift();
      if (waiter) void this.openOne().then(waiter.resolve);
      return;
    }
    const waiter = this.waiters.shift();
    if (waiter) waiter.resolve({ connection });
    else this.idle.push(connection);
  }

  async close(): Promise<void> {
    this.closed = true;
    const idle = this.idle.splice(0);
    this.open -= idle.length;
    await Promise.all(idle.map((c) => c.quit()));
  }

  private async openOne(): Promise<{ connection: SmtpConnection } | { failure: OpenFailure }> {
    this.open += 1;
    let result: { connection: SmtpConnection } | { failure: OpenFailure };
    try {
      result = await this.opener();
    } catch (error) {
      result = { failure: asFailure(error, null) };
    }
    if ('failure' in result) {
      this.open -= 1;
      for (const waiter of this.waiters.splice(0)) waiter.resolve(result);
    }
    return result;
  }

  /** Even spacing of transaction starts for a rate limit. */
  private async pace(): Promise<void> {
    const rate = this.limit.messagesPerSecond;
    if (!(rate > 0)) return;
    const gap = 1000 / rate;
    const now = Date.now();
    const start = Math.max(now, this.nextStart);
    this.nextStart = start + gap;
    if (start > now) await new Promise((resolve) => setTimeout(resolve, start - now));
  }
}

export function asFailure(error: unknown, host: string | null): OpenFailure {
  if (error instanceof SmtpRefusal)
    return { kind: 'refused', code: error.answer.code, text: error.answer.text, host };
  if (error instanceof SmtpTransportError)
    return { kind: 'transport', code: error.code, message: error.message, host };
  const e = error as NodeJS.ErrnoException;
  return { kind: 'transport', code: e?.code ?? 'ECONNECTION', message: e?.message ?? String(error), host };
}
