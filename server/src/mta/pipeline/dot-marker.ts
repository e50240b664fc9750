import type { ClaimRepo } from './claim.repo.ts';

/**
 * Group commit of the exactly-once marks: connections that reach the end of their DATA in the
 * same event-loop turn share one UPDATE. On SQLite the UPDATE commits synchronously and the dots
 * follow in the same turn; on PostgreSQL the dots follow the commit's acknowledgement, and a
 * process killed between the server's commit and that acknowledgement leaves marked rows whose dot
 * was never written (recorded as delivered, unconfirmed, but lost): a window of one round trip. Each caller learns whether its row was marked (it still
 * held the lease) and writes its final dot as soon as the promise resolves; a failed write means
 * no dot, and the remote side discards the unfinished transaction.
 */
export class DotMarker {
  private pending = new Map<string, { ids: number[]; waiters: ((marked: Set<number> | null) => void)[] }>();
  private scheduled = false;

  private readonly claims: ClaimRepo;

  constructor(claims: ClaimRepo) {
    this.claims = claims;
  }

  async mark(owner: string, id: number): Promise<boolean> {
    const marked = await new Promise<Set<number> | null>((resolve) => {
      let group = this.pending.get(owner);
      if (!group) {
        group = { ids: [], waiters: [] };
        this.pending.set(owner, group);
      }
      group.ids.push(id);
      group.waiters.push(resolve);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
    return marked?.has(id) ?? false;
  }

  private flush(): void {
    this.scheduled = false;
    const groups = this.pending;
    this.pending = new Map();
    for (const [owner, group] of groups) {
      let now: Set<number> | null = null;
      try {
        now = this.claims.markDotSentNow(owner, group.ids, Date.now());
      } catch {
        for (const waiter of group.waiters) waiter(null);
        continue;
      }
      if (now) {
        // Resolved here, so every dot is written in the microtasks of this very turn.
        for (const waiter of group.waiters) waiter(now);
        continue;
      }
      this.claims.markDotSent(owner, group.ids, Date.now()).then(
        (marked) => {
          for (const waiter of group.waiters) waiter(marked);
        },
        () => {
          for (const waiter of group.waiters) waiter(null);
        },
      );
    }
  }
}
