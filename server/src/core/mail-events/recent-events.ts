import type { Database } from '../../db/database.ts';

/** How many of the newest events a process keeps for its other consumers. */
const KEPT = 20_000;

/**
 * The events one process read last, kept for the other consumers of the log (statistics,
 * charging, webhooks), which read the same events a moment apart: without it each reads and
 * parses every event again. What it holds is always a complete run of the log, every event after
 * `from` up to the newest held: the log is append-only and its ids commit in increasing order
 * (mail-event-log.ts), so no event can appear later inside a run once it has been read.
 */
export class RecentEvents<Item extends { id: number } = { id: number }> {
  /** The events held follow this id with no gap. */
  private from = 0;
  private events: Item[] = [];

  /** The id the held run ends at. */
  get top(): number {
    return this.events.at(-1)?.id ?? this.from;
  }

  /** Up to `limit` events after `lastId`, or undefined when the run does not reach back to it. */
  after(lastId: number, limit: number): Item[] | undefined {
    if (lastId < this.from || lastId > this.top) return undefined;
    let low = 0;
    let high = this.events.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((this.events[mid] as Item).id <= lastId) low = mid + 1;
      else high = mid;
    }
    return this.events.slice(low, low + limit);
  }

  /** Holds what a read of the log after `lastId` answered, in place of what was held. */
  replace(lastId: number, read: Item[]): void {
    if (read.length === 0) return;
    this.from = lastId;
    this.events = read.slice(-KEPT);
    if (read.length > KEPT) this.from = (read[read.length - KEPT - 1] as Item).id;
  }

  /** Adds what a read after `top` answered, when the run still ends there. */
  extend(top: number, read: Item[]): void {
    if (read.length === 0 || top !== this.top) return;
    this.events.push(...read);
    const over = this.events.length - KEPT;
    if (over > 0) {
      this.from = (this.events[over - 1] as Item).id;
      this.events = this.events.slice(over);
    }
  }
}

const byDatabase = new WeakMap<Database, RecentEvents<never>>();

/** The recent events of one database, shared by every consumer in this process. */
export function recentEventsOf<Item extends { id: number }>(database: Database): RecentEvents<Item> {
  let recent = byDatabase.get(database) as RecentEvents<Item> | undefined;
  if (!recent) {
    recent = new RecentEvents<Item>();
    byDatabase.set(database, recent as unknown as RecentEvents<never>);
  }
  return recent;
}
