import { randomBytes } from 'node:crypto';
import { ACTIVATION_VALID_DAYS } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { UserCaller } from '../context.ts';
import { hashToken } from '../sessions/sessions.service.ts';
import * as repo from './account-tokens.repo.ts';

export type { TokenPurpose } from './account-tokens.repo.ts';

/** How long each kind of emailed link stays valid (registration: ACTIVATION_VALID_DAYS). */
export const TOKEN_LIFETIME_MS: Record<repo.TokenPurpose, number> = {
  activation: ACTIVATION_VALID_DAYS * 24 * 3600_000,
  password_reset: 3600_000,
  invite: 7 * 24 * 3600_000,
};

/**
 * One-time tokens behind the links Herald emails (activation, password reset, invitations). Only
 * a hash is stored; issuing a new token of a purpose retires the user's earlier ones.
 */
export class AccountTokensService {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  async issue(ctx: UserCaller, purpose: repo.TokenPurpose): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = Date.now();
    await repo.retireTokens(this.database, ctx.accountId, ctx.userId, purpose, now);
    await repo.insertToken(
      this.database,
      {
        tokenHash: hashToken(token),
        accountId: ctx.accountId,
        userId: ctx.userId,
        purpose,
        expiresAt: now + TOKEN_LIFETIME_MS[purpose],
      },
      now,
    );
    return token;
  }

  /**
   * The context the token was issued for, once; null when unknown, used or expired. `within` is a
   * transaction the use belongs to, so that it is undone when the rest of the change fails.
   */
  async consume(token: string, purpose: repo.TokenPurpose, within?: Database): Promise<UserCaller | null> {
    const row = await repo.consumeToken(within ?? this.database, hashToken(token), purpose, Date.now());
    return row ? { accountId: row.account_id, userId: row.user_id } : null;
  }

  /** The context of a live token, leaving it usable (to show what a link is about). */
  async peek(token: string, purpose: repo.TokenPurpose): Promise<UserCaller | null> {
    const row = await repo.findLiveToken(this.database, hashToken(token), purpose, Date.now());
    return row ? { accountId: row.account_id, userId: row.user_id } : null;
  }
}
