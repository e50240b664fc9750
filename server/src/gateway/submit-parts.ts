/**
 * The parts of a long submit (a UDH with reference, total and number in each part, or SMPP's sar
 * TLVs), joined before the text goes to the send path: signature and template are checked on the
 * whole text and it is billed as the parts it has. Every part is answered at once with its own
 * Msg_Id (a client with a window of one must be able to send the next part); the last part's
 * answer carries the verdict on the whole. Parts are keyed by user, sender, numbers, reference
 * and total; a set still incomplete after `timeoutMs` is handed to `expired`, whose parts were
 * answered as taken and so are owed a report saying it was not sent.
 */
export interface Part<T> {
  seq: number;
  body: T;
  /** Per number, this part's Msg_Id. */
  msgIds: string[];
}

export interface Joined<T> {
  /** Bodies in part order. */
  bodies: T[];
  /** Per number, its parts' Msg_Ids in order. */
  msgIds: string[][];
}

interface Pending<T> {
  total: number;
  parts: Map<number, Part<T>>;
  timer: NodeJS.Timeout;
}

export class SubmitParts<T> {
  private readonly pending = new Map<string, Pending<T>>();
  private readonly expired: (key: string, parts: Part<T>[]) => void;
  private readonly timeoutMs: number;

  constructor(expired: (key: string, parts: Part<T>[]) => void, timeoutMs = 60_000) {
    this.expired = expired;
    this.timeoutMs = timeoutMs;
  }

  /** Adds a part; answers the whole once every part is in, else undefined. */
  add(key: string, total: number, part: Part<T>): Joined<T> | undefined {
    let entry = this.pending.get(key);
    if (!entry) {
      const timer = setTimeout(() => this.expire(key), this.timeoutMs);
      timer.unref();
      entry = { total, parts: new Map(), timer };
      this.pending.set(key, entry);
    }
    entry.parts.set(part.seq, part);
    if (entry.parts.size < entry.total) return undefined;
    clearTimeout(entry.timer);
    this.pending.delete(key);
    const ordered = [...entry.parts.values()].sort((a, b) => a.seq - b.seq);
    const numbers = ordered[0]?.msgIds.length ?? 0;
    return {
      bodies: ordered.map((p) => p.body),
      msgIds: Array.from({ length: numbers }, (_, i) => ordered.map((p) => p.msgIds[i] as string)),
    };
  }

  /** Every incomplete set, as if it expired now (the connection is closing). */
  close(): void {
    for (const key of [...this.pending.keys()]) this.expire(key);
  }

  private expire(key: string): void {
    const entry = this.pending.get(key);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.pending.delete(key);
    this.expired(key, [...entry.parts.values()]);
  }
}
