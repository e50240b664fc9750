/**
 * The window and rate of each gateway user in this process, over all its connections: at most
 * `window` submits awaiting their answer, and `perSecond` submits started per second (a token
 * bucket that holds one second's worth). A submit beyond either is answered at once with CMPP's
 * flow-control result 8 or SMPP's ESME_RTHROTTLED / ESME_RMSGQFUL, which customers' systems
 * treat as "send it again a moment later".
 */
export type LimitRefusal = 'window' | 'rate';

export class UserLimits {
  private readonly users = new Map<number, { inFlight: number; tokens: number; at: number }>();
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  /** A place for one submit, or why there is none. */
  take(user: { id: number; window: number; perSecond: number }): LimitRefusal | null {
    const now = this.now();
    let state = this.users.get(user.id);
    if (!state) {
      state = { inFlight: 0, tokens: user.perSecond, at: now };
      this.users.set(user.id, state);
    }
    state.tokens = Math.min(user.perSecond, state.tokens + ((now - state.at) / 1000) * user.perSecond);
    state.at = now;
    if (state.inFlight >= user.window) return 'window';
    if (state.tokens < 1) return 'rate';
    state.tokens -= 1;
    state.inFlight += 1;
    return null;
  }

  /** The submit taken with `take` was answered. */
  done(userId: number): void {
    const state = this.users.get(userId);
    if (state && state.inFlight > 0) state.inFlight -= 1;
  }
}
