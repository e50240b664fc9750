import { randomInt } from 'node:crypto';
import { beijingClock } from '@herald/shared';

/**
 * Msg_Ids the gateway answers submits with, in the spec's 64-bit layout (reference §5): month,
 * day, hour, minute, second (Beijing time), a 22-bit gateway code and a 16-bit sequence. Each
 * process draws its own gateway code, so two gateway processes never hand out the same id in the
 * same second but by a 1-in-4-million chance; within a process, a second that runs out of its
 * 65,536 sequence numbers borrows the next second's, so ids never repeat. A group submit to n
 * numbers takes n consecutive ids (recipient i is Msg_Id + i, as the spec's appendix says).
 * SMPP answers with the same value's 16 hex digits as its message_id.
 */
export class MsgIds {
  private readonly gateway: bigint;
  private second = 0;
  private sequence = 0;
  private readonly now: () => number;

  constructor(now: () => number = Date.now, gateway: number = randomInt(1, 0x400000)) {
    this.now = now;
    this.gateway = BigInt(gateway & 0x3fffff);
  }

  /** `count` consecutive ids, as 16 lowercase hex digits each. */
  next(count = 1): string[] {
    const current = Math.floor(this.now() / 1000);
    if (current > this.second) {
      this.second = current;
      this.sequence = 0;
    }
    if (this.sequence + count > 0x10000) {
      this.second += 1;
      this.sequence = 0;
    }
    const base = this.stamp(this.second) | (this.gateway << 16n);
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1)
      ids.push((base | BigInt(this.sequence + i)).toString(16).padStart(16, '0'));
    this.sequence += count;
    return ids;
  }

  private stamp(second: number): bigint {
    const d = beijingClock(second * 1000);
    return (
      (BigInt(d.getUTCMonth() + 1) << 60n) |
      (BigInt(d.getUTCDate()) << 55n) |
      (BigInt(d.getUTCHours()) << 50n) |
      (BigInt(d.getUTCMinutes()) << 44n) |
      (BigInt(d.getUTCSeconds()) << 38n)
    );
  }
}
