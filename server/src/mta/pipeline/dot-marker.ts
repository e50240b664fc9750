import type { DotDecision, DotWrite, FinalDot } from '../smtp-client/smtp-connection.ts';
import type { DeliveryStore } from '../store/delivery-store.ts';
import type { DotJournal } from './dot-journal.ts';

interface Group {
  ids: number[];
  dots: FinalDot[];
  waiters: ((decision: DotDecision) => void)[];
}

/**
 * Group commit of the exactly-once marks: connections that reach the end of their DATA in the
 * same event-loop turn share one UPDATE, and the marker itself writes the final dots of the rows
 * it marked right behind the commit (DeliveryStore.markDotSent says how each store does it), each
 * one right after its entry in the dot journal, which tells a worker finding the mark of a dead
 * one whether the dot went out (dot-journal.ts).
 *
 * Each caller learns what became of its dot:
 * - sent: marked and written;
 * - withheld: its row was not marked (the lease went to another worker) or its connection is
 *   gone; no dot, and the remote side discards the unfinished transaction;
 * - busy: the kernel had no room for the dot yet (a slow reader still holds the body); the mark
 *   was taken back and the caller asks again.
 */
export class DotMarker {
  private pending = new Map<string, Group>();
  private scheduled = false;
  /** The last mark time handed out: each attempt's is its own, so a journal entry names one attempt. */
  private lastMarkedAt = 0;

  private readonly store: DeliveryStore;
  private readonly journal: DotJournal;

  constructor(store: DeliveryStore, journal: DotJournal) {
    this.store = store;
    this.journal = journal;
  }

  mark(owner: string, id: number, dot: FinalDot): Promise<DotDecision> {
    return new Promise<DotDecision>((resolve) => {
      let group = this.pending.get(owner);
      if (!group) {
        group = { ids: [], dots: [], waiters: [] };
        this.pending.set(owner, group);
      }
      group.ids.push(id);
      group.dots.push(dot);
      group.waiters.push(resolve);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const groups = this.pending;
    this.pending = new Map();
    for (const [owner, group] of groups) this.commit(owner, group);
  }

  private commit(owner: string, group: Group): void {
    const attempts = new Map<number, DotWrite>();
    const dotOf = new Map<number, FinalDot>();
    // A connection that cannot take its dot now is not marked at all.
    const ready: number[] = [];
    group.ids.forEach((id, i) => {
      const dot = group.dots[i] as FinalDot;
      if (dot.ready()) {
        ready.push(id);
        dotOf.set(id, dot);
      }
    });
    this.lastMarkedAt = Math.max(Date.now(), this.lastMarkedAt + 1);
    const markedAt = this.lastMarkedAt;
    const writeDots = (marked: Set<number>): Set<number> => {
      const written = new Set<number>();
      for (const id of marked) {
        const journaled = this.tryJournal(() => this.journal.record(owner, id, markedAt));
        const attempt = (dotOf.get(id) as FinalDot).write();
        attempts.set(id, attempt);
        if (attempt === 'written') written.add(id);
        else if (journaled) this.tryJournal(() => this.journal.retract(owner, id, markedAt));
      }
      return written;
    };
    const answer = () => {
      group.ids.forEach((id, i) => {
        const attempt = attempts.get(id);
        group.waiters[i]?.(attempt === 'written' ? 'sent' : attempt === 'busy' ? 'busy' : 'withheld');
      });
    };
    if (ready.length === 0) {
      answer();
      return;
    }
    this.tryJournal(() => this.journal.open(owner));
    // A failed commit after the dots were written still answers "sent" for them: the dots are
    // out, and the reply to them is recorded as usual.
    this.store.markDotSent(owner, ready, markedAt, writeDots).then(answer, answer);
  }

  /** A journal that cannot be written (a full disk) does not stop delivery: the dot goes out regardless. */
  private tryJournal(write: () => void): boolean {
    try {
      write();
      return true;
    } catch {
      return false;
    }
  }
}
