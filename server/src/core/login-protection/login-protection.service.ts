import { randomBytes } from 'node:crypto';
import type { Database } from '../../db/database.ts';
import type { ClientInfo, LoginGuard, PendingLogin } from '../auth/auth.service.ts';
import type { UserCaller } from '../context.ts';
import type { IpWhitelistService } from '../ip-whitelist/ip-whitelist.service.ts';
import { loadUserSecurity, loginWays } from '../security-settings/user-security.ts';
import { hashToken } from '../sessions/sessions.service.ts';
import * as repo from './pending-logins.repo.ts';

/** A pending login lasts as long as the code it waits for (verification-codes.service.ts). */
export const PENDING_LOGIN_MS = 10 * 60_000;
/** Used and expired pending logins are kept a day (for support questions), then deleted. */
const PENDING_LOGIN_KEEP_MS = 24 * 3600_000;

/**
 * What an account's security settings add to a password login, consulted by AuthService once the
 * password is known to be right: the IP whitelist, and login protection. With protection "always",
 * or "new IP only" and an address the user never completed a login from, the login gets no session
 * but a pending-login token (stored hashed) for the second step (LoginVerificationService).
 */
export class LoginProtection implements LoginGuard {
  private readonly database: Database;
  private readonly whitelist: IpWhitelistService;

  constructor(database: Database, whitelist: IpWhitelistService) {
    this.database = database;
    this.whitelist = whitelist;
  }

  requireAllowedAddress(ctx: UserCaller, ip: string | undefined): Promise<void> {
    return this.whitelist.requireAllowed(ctx, ip);
  }

  async secondStep(ctx: UserCaller, loginName: string, client: ClientInfo): Promise<PendingLogin | null> {
    const user = await loadUserSecurity(this.database, ctx);
    if (user.loginVerify === 'off') return null;
    if (
      user.loginVerify === 'newIp' &&
      client.ip &&
      (await repo.hasLoggedInFrom(this.database, ctx.accountId, ctx.userId, client.ip))
    ) {
      return null;
    }
    const verifyToken = randomBytes(32).toString('base64url');
    const now = Date.now();
    await repo.deletePendingLoginsBefore(this.database, now - PENDING_LOGIN_KEEP_MS);
    await repo.insertPendingLogin(
      this.database,
      {
        tokenHash: hashToken(verifyToken),
        accountId: ctx.accountId,
        userId: ctx.userId,
        loginName,
        ip: client.ip ?? null,
        userAgent: client.userAgent ?? null,
        expiresAt: now + PENDING_LOGIN_MS,
      },
      now,
    );
    return { verifyToken, ways: loginWays(user), expiresIn: PENDING_LOGIN_MS / 1000 };
  }
}
