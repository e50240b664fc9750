import {
  AppError,
  isAppError,
  type Lang,
  type LoginVerifyInfo,
  type VerifyCodeSent,
  type VerifyWay,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { AuthService, ClientInfo } from '../auth/auth.service.ts';
import type { UserCaller } from '../context.ts';
import type { IpWhitelistService } from '../ip-whitelist/ip-whitelist.service.ts';
import { type IdentityCheck, WRONG_CODE_ERRORS } from '../security-settings/identity-check.ts';
import * as settings from '../security-settings/security-settings.repo.ts';
import {
  describeWays,
  loadUserSecurity,
  loginWays,
  type UserSecurity,
} from '../security-settings/user-security.ts';
import { hashToken } from '../sessions/sessions.service.ts';
import * as repo from './pending-logins.repo.ts';

export interface LoginVerifyResult {
  token: string;
  ctx: UserCaller;
  /** True until the user acknowledges their first protected login (firstLoginSuccess). */
  firstProtectedLogin: boolean;
}

/**
 * The second step of a protected login (`/v3/user/loginVerify`). It is reached only with the
 * pending-login token the password step handed out, from the address that step came from, within
 * ten minutes. A wrong code counts towards the password lockout (AuthService), so the second step
 * cannot be guessed at more freely than the password; the right one spends the token and ends the
 * login exactly as an unprotected one ends (session, login log).
 */
export class LoginVerificationService {
  private readonly database: Database;
  private readonly auth: AuthService;
  private readonly identity: IdentityCheck;
  private readonly whitelist: IpWhitelistService;

  constructor(deps: {
    database: Database;
    auth: AuthService;
    identity: IdentityCheck;
    whitelist: IpWhitelistService;
  }) {
    this.database = deps.database;
    this.auth = deps.auth;
    this.identity = deps.identity;
    this.whitelist = deps.whitelist;
  }

  /** The ways the second step accepts, with masked targets. */
  async info(verifyToken: string | undefined, ip: string): Promise<LoginVerifyInfo> {
    const { pending, user } = await this.pending(verifyToken, ip);
    return {
      ways: describeWays(user, loginWays(user)),
      expiresIn: Math.max(0, Math.round((pending.expires_at - Date.now()) / 1000)),
    };
  }

  async sendCode(
    verifyToken: string | undefined,
    ip: string,
    way: 'sms' | 'email',
    lang: Lang,
  ): Promise<VerifyCodeSent> {
    const { user } = await this.pending(verifyToken, ip);
    return this.identity.sendCode(user, 'loginVerify', way, loginWays(user), lang);
  }

  async verify(
    verifyToken: string | undefined,
    client: ClientInfo & { ip: string },
    way: VerifyWay,
    code: string,
  ): Promise<LoginVerifyResult> {
    const { pending, user } = await this.pending(verifyToken, client.ip);
    const ctx = { accountId: user.accountId, userId: user.userId };
    const loginName = pending.login_name;
    await this.auth.requireNotLocked(ctx, loginName, client);
    if (user.status !== 'active') throw new AppError('LOGIN_VERIFY_EXPIRED');
    await this.whitelist.requireAllowed(ctx, client.ip);
    try {
      await this.identity.require(user, 'loginVerify', way, code, loginWays(user));
    } catch (error) {
      if (isAppError(error) && WRONG_CODE_ERRORS.has(error.code)) {
        await this.auth.recordSecondStepFailure(ctx, loginName, client);
      }
      throw error;
    }
    if (!(await repo.usePendingLogin(this.database, pending.id, Date.now()))) {
      throw new AppError('LOGIN_VERIFY_EXPIRED');
    }
    const session = await this.auth.finishLogin(ctx, loginName, client);
    return { ...session, firstProtectedLogin: user.protectedLoginAckAt === null };
  }

  /**
   * firstLoginSuccess: the user saw the notice the console shows after their first protected
   * login ("login protection is on; next time you will be asked for …"), so it is not shown again.
   */
  async acknowledgeFirstLogin(ctx: UserCaller): Promise<{ acknowledgedAt: number }> {
    const now = Date.now();
    await settings.upsertSettings(
      this.database,
      ctx.accountId,
      ctx.userId,
      { protected_login_ack_at: now },
      now,
    );
    return { acknowledgedAt: now };
  }

  private async pending(
    verifyToken: string | undefined,
    ip: string,
  ): Promise<{
    pending: NonNullable<Awaited<ReturnType<typeof repo.findPendingLogin>>>;
    user: UserSecurity;
  }> {
    if (!verifyToken) throw new AppError('LOGIN_VERIFY_EXPIRED');
    const pending = await repo.findPendingLogin(this.database, hashToken(verifyToken), Date.now());
    // Bound to the address of the password step: a token that leaked elsewhere is worthless.
    if (!pending || pending.ip !== ip) throw new AppError('LOGIN_VERIFY_EXPIRED');
    const user = await loadUserSecurity(this.database, {
      accountId: pending.account_id,
      userId: pending.user_id,
    });
    return { pending, user };
  }
}
