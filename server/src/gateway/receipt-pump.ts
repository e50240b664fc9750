import type { OwedReceipt, SmsGatewayService } from '../core/sms-gateway-users/sms-gateway.service.ts';
import type { Logger } from '../logger.ts';

/** A logged-in connection that takes reports and replies (a CMPP session, an SMPP receiver or transceiver). */
export interface ReceiptSink {
  readonly userId: number;
  /** How many more it takes now. */
  room(): number;
  /** Takes one; it tells the pump `answered` or hands it back on `detach`. */
  push(receipt: OwedReceipt): void;
}

export interface ReceiptPumpOptions {
  /** Pause between rounds when nothing woke the pump. Default 100 ms. */
  pollMs?: number;
  /** A row handed out this long ago and never answered may go again (to any connection). Default 60 s. */
  resendAfterMs?: number;
  /** SMS events read per relay step. Default 2000. */
  relayBatch?: number;
}

/**
 * Moves what customers are owed to their connections (issue 17). Each round relays the SMS event
 * log into owed rows (SmsGatewayService.relay, catching up in several steps when behind), then
 * claims rows of the users with a connection here that has room, as many as they have room for,
 * and hands each to one of its user's connections. Answers come back through `answered` and are
 * written a round at a time; a connection that closes hands back what it held, which is owed again
 * at once, so a customer who reconnects (here or to another Herald) gets it then, and only once.
 */
export class ReceiptPump {
  private readonly gateway: Pick<SmsGatewayService, 'relay' | 'claim' | 'acked' | 'release'>;
  private readonly logger: Logger;
  private readonly pollMs: number;
  private readonly resendAfterMs: number;
  private readonly relayBatch: number;
  private readonly sinks = new Map<number, Set<ReceiptSink>>();
  private readonly turn = new Map<number, number>();
  private acked: number[] = [];
  private released: number[] = [];
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private closed = false;

  constructor(
    gateway: Pick<SmsGatewayService, 'relay' | 'claim' | 'acked' | 'release'>,
    logger: Logger,
    options: ReceiptPumpOptions = {},
  ) {
    this.gateway = gateway;
    this.logger = logger;
    this.pollMs = options.pollMs ?? 100;
    this.resendAfterMs = options.resendAfterMs ?? 60_000;
    this.relayBatch = options.relayBatch ?? 2000;
  }

  start(): void {
    this.schedule(0);
  }

  attach(sink: ReceiptSink): void {
    const set = this.sinks.get(sink.userId) ?? new Set();
    set.add(sink);
    this.sinks.set(sink.userId, set);
    this.wake();
  }

  /** The connection closed: what it held and the customer never answered is owed again. */
  detach(sink: ReceiptSink, unanswered: number[]): void {
    const set = this.sinks.get(sink.userId);
    set?.delete(sink);
    if (set?.size === 0) this.sinks.delete(sink.userId);
    this.released.push(...unanswered);
    this.wake();
  }

  /** The customer answered a row: `ok` false (flow control) owes it again. */
  answered(id: number, ok: boolean): void {
    (ok ? this.acked : this.released).push(id);
    if (this.acked.length + this.released.length >= 500) this.wake();
  }

  /** Runs a round now (a connection has room, or an SMS settled here). */
  wake(): void {
    if (this.closed) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.running;
    await this.flush().catch(() => undefined);
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.round().finally(() => {
        this.running = undefined;
        if (this.closed) return;
        const now = this.again;
        this.again = false;
        this.schedule(now ? 0 : this.pollMs);
      });
    }, ms);
  }

  private async round(): Promise<void> {
    try {
      for (let step = 0; step < 10; step += 1) {
        const { read } = await this.gateway.relay(this.relayBatch);
        if (read < this.relayBatch) break;
      }
      await this.flush();
      await this.dispatch();
    } catch (error) {
      this.logger.error({ err: error }, 'gateway receipt round failed');
    }
  }

  private async flush(): Promise<void> {
    const acked = this.acked.splice(0);
    const released = this.released.splice(0);
    if (acked.length > 0) await this.gateway.acked(acked);
    if (released.length > 0) await this.gateway.release(released);
  }

  private async dispatch(): Promise<void> {
    const rooms = new Map<number, number>();
    for (const [userId, set] of this.sinks) {
      let room = 0;
      for (const sink of set) room += Math.max(0, sink.room());
      if (room > 0) rooms.set(userId, room);
    }
    if (rooms.size === 0) return;
    const limit = Math.min(
      5000,
      [...rooms.values()].reduce((a, b) => a + b, 0),
    );
    const rows = await this.gateway.claim([...rooms.keys()], limit, this.resendAfterMs);
    const back: number[] = [];
    for (const row of rows) {
      const sink = this.pick(row.userId);
      if (sink) sink.push(row);
      else back.push(row.id);
    }
    if (back.length > 0) this.released.push(...back);
    // A full batch: there may be more owed; go again at once.
    if (rows.length === limit && limit > 0) this.again = true;
  }

  /** The user's connections in turn, skipping those without room. */
  private pick(userId: number): ReceiptSink | undefined {
    const sinks = [...(this.sinks.get(userId) ?? [])];
    if (sinks.length === 0) return undefined;
    const start = this.turn.get(userId) ?? 0;
    for (let i = 0; i < sinks.length; i += 1) {
      const sink = sinks[(start + i) % sinks.length] as ReceiptSink;
      if (sink.room() > 0) {
        this.turn.set(userId, (start + i + 1) % sinks.length);
        return sink;
      }
    }
    return undefined;
  }
}
