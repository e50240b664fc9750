import type { DeliveryStore } from '../store/delivery-store.ts';

interface Group {
  ids: number[];
  writers: (() => void)[];
  waiters: ((marked: Set<number> | null) => void)[];
}

/**
 * Group commit of the exactly-once marks: connections that reach the end of their DATA in the
 * same event-loop turn share one UPDATE, and the marker itself writes the final dots of the rows
 * it marked, in the same turn as the commit, so no kill can fall between a durable mark and its
 * dot with a turn to spare (DeliveryStore.markDotSent says how each store does it).
 * Each caller learns whether its row was marked (it still held the lease). An unmarked row gets no
 * dot, and the remote side discards the unfinished transaction.
 */
export class DotMarker {
  private pending = new Map<string, Group>();
  private scheduled = false;

  private readonly store: DeliveryStore;

  constructor(store: DeliveryStore) {
    this.store = store;
  }

  async mark(owner: string, id: number, writeDot: () => void = () => {}): Promise<boolean> {
    const marked = await new Promise<Set<number> | null>((resolve) => {
      let group = this.pending.get(owner);
      if (!group) {
        group = { ids: [], writers: [], waiters: [] };
        this.pending.set(owner, group);
      }
      group.ids.push(id);
      group.writers.push(writeDot);
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
      const answer = (marked: Set<number> | null) => {
        for (const waiter of group.waiters) waiter(marked);
      };
      const writeDots = (marked: Set<number>) => {
        group.ids.forEach((id, i) => {
          if (marked.has(id)) group.writers[i]?.();
        });
      };
      let written: Set<number> | null = null;
      this.store
        .markDotSent(owner, group.ids, Date.now(), (marked) => {
          written = marked;
          writeDots(marked);
        })
        .then(answer, () => answer(written));
    }
  }
}
