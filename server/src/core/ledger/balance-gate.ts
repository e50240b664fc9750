import { AppError, fenToYuan } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import { fundsOf } from './ledger.repo.ts';

const CACHE_MS = 1_500;

/**
 * The accept paths' balance check: a paid account whose balance is zero or below is refused
 * (email LEDGER_EMAIL_BALANCE_INSUFFICIENT, SMS 499). Free accounts pass: their free quota rules
 * apply instead. Read through a per-process cache of CACHE_MS so a send costs a map lookup; a
 * credit posted in this process applies at once (`changed`), one made elsewhere within CACHE_MS.
 *
 * Until recharges exist (the next slice of issue 18), a paid account is gated once money has
 * moved on it (it has a balance row): an account an operator marked paid with no ledger history
 * at all is treated as arranged offline, neither refused nor charged (charging.ts). When the
 * first recharge is what makes an account paid, every paid account has a row and this
 * distinction disappears.
 *
 * The check is of the balance, not of the cost of what is being accepted: outcomes are charged
 * when they happen, so everything accepted while the balance was above zero (including within
 * the cache's window after it reached zero) is still charged and may take the balance below zero.
 */
export class BalanceGate {
  private readonly database: Database;
  private readonly now: () => number;
  private readonly cache = new Map<number, { paid: boolean; balanceFen: number; until: number }>();

  constructor(database: Database, options: { now?: () => number } = {}) {
    this.database = database;
    this.now = options.now ?? Date.now;
  }

  async require(accountId: number, channel: 'email' | 'sms'): Promise<void> {
    const now = this.now();
    let hit = this.cache.get(accountId);
    if (!hit || hit.until <= now) {
      const funds = await fundsOf(this.database, accountId);
      const gated = funds?.plan === 'paid' && funds.tracked;
      hit = { paid: gated, balanceFen: funds?.balanceFen ?? 0, until: now + CACHE_MS };
      this.cache.set(accountId, hit);
    }
    if (!hit.paid || hit.balanceFen > 0) return;
    throw new AppError(
      channel === 'sms' ? 'LEDGER_SMS_BALANCE_INSUFFICIENT' : 'LEDGER_EMAIL_BALANCE_INSUFFICIENT',
      { balance: fenToYuan(hit.balanceFen) },
    );
  }

  /** Forgets the cached funds of an account whose balance or plan just changed in this process. */
  changed(accountId: number): void {
    this.cache.delete(accountId);
  }
}
