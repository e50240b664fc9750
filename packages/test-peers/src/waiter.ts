/**
 * Shared "wait until N things were received" helper for the peers. Each peer appends to a plain
 * array and calls `notify()`; tests await `waitFor(count, timeoutMs)`. Waiters are settled on every
 * notify, rejected with a descriptive error on timeout, and rejected when the peer closes, so a
 * test never hangs on a peer that is gone and never leaves a timer behind.
 */

interface Pending<T> {
  count: number;
  resolve: (items: T[]) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export interface Waiter<T> {
  /** Re-check pending waiters; call after appending to the list. */
  notify(): void;
  /** Resolves with a snapshot of the list once it holds at least `count` items. */
  waitFor(count: number, timeoutMs: number): Promise<T[]>;
  /** Rejects every pending waiter (used by `close()`). */
  cancelAll(reason: string): void;
}

export function createWaiter<T>(list: () => readonly T[], what: string): Waiter<T> {
  const pending = new Set<Pending<T>>();

  const notify = (): void => {
    const items = list();
    for (const waiter of pending) {
      if (items.length >= waiter.count) {
        pending.delete(waiter);
        clearTimeout(waiter.timer);
        waiter.resolve([...items]);
      }
    }
  };

  const waitFor = (count: number, timeoutMs: number): Promise<T[]> => {
    const items = list();
    if (items.length >= count) return Promise.resolve([...items]);
    return new Promise<T[]>((resolve, reject) => {
      const waiter: Pending<T> = {
        count,
        resolve,
        reject,
        timer: setTimeout(() => {
          pending.delete(waiter);
          const got = list().length;
          reject(new Error(`${what}: expected ${count} message(s) within ${timeoutMs}ms, got ${got}`));
        }, timeoutMs),
      };
      pending.add(waiter);
    });
  };

  const cancelAll = (reason: string): void => {
    for (const waiter of pending) {
      clearTimeout(waiter.timer);
      waiter.reject(new Error(`${what}: ${reason}`));
    }
    pending.clear();
  };

  return { notify, waitFor, cancelAll };
}
