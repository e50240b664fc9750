import { AppError } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { AccountState } from '../../db/schema.ts';
import type { Caller } from '../context.ts';
import * as queues from '../queues/queues.repo.ts';
import * as repo from './accounts.repo.ts';

const CACHE_MS = 5_000;

/** What mail held for the account's state says (message_recipients.reason, the send log). */
export const ACCOUNT_HOLD_REASONS = {
  suspended: 'account suspended',
  frozen: 'account frozen',
} as const;

/**
 * The account's standing as operators set it, for every path that accepts or delivers work: the
 * accept side refuses a suspended or frozen account (`requireSending`), the delivery side holds
 * its queued mail (`current`). Read through a per-process cache of a few seconds, so the hot
 * paths cost a map lookup; a change made in this process applies at once (`changed`), one made
 * elsewhere within CACHE_MS.
 */
export class AccountStates {
  private readonly database: Database;
  private readonly now: () => number;
  private readonly cache = new Map<number, { state: AccountState; until: number }>();

  constructor(database: Database, options: { now?: () => number } = {}) {
    this.database = database;
    this.now = options.now ?? Date.now;
  }

  async current(accountId: number): Promise<AccountState> {
    const now = this.now();
    const hit = this.cache.get(accountId);
    if (hit && hit.until > now) return hit.state;
    const state = (await repo.findState(this.database, accountId)) ?? 'active';
    this.cache.set(accountId, { state, until: now + CACHE_MS });
    return state;
  }

  /** Throws ACCOUNT_SUSPENDED or ACCOUNT_FROZEN unless the account may send. */
  async requireSending({ accountId }: Caller): Promise<void> {
    const state = await this.current(accountId);
    if (state === 'suspended') throw new AppError('ACCOUNT_SUSPENDED');
    if (state === 'frozen') throw new AppError('ACCOUNT_FROZEN');
  }

  /**
   * Sets the account's state. Resuming (back to active) releases the mail held for its state at
   * once; the count of released recipients is returned.
   */
  async set({ accountId }: Caller, state: AccountState): Promise<{ released: number }> {
    const now = this.now();
    await repo.setState(this.database, accountId, state, now);
    this.changed(accountId);
    if (state !== 'active') return { released: 0 };
    // Due once every process's cached state has expired, so no worker holds them again.
    const released = await queues.releaseHeld(
      this.database,
      accountId,
      { reasons: Object.values(ACCOUNT_HOLD_REASONS) },
      now,
      now + CACHE_MS + 100,
    );
    return { released };
  }

  changed(accountId: number): void {
    this.cache.delete(accountId);
  }
}
