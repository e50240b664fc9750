import { AppError } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { Ctx } from '../context.ts';
import type { SessionsService } from '../sessions/sessions.service.ts';
import * as users from '../users/users.repo.ts';
import * as events from './login-events.repo.ts';
import { verifyPassword } from './password.ts';

/** Consecutive failures that lock a user out, and for how long. */
export const LOCKOUT_THRESHOLD = 5;
export const LOCKOUT_MS = 15 * 60_000;
/** After this many recent failures for a login name, its next attempt must carry an image code. */
export const CAPTCHA_AFTER_FAILURES = 3;

export interface ClientInfo {
  ip?: string;
  userAgent?: string;
}

export interface LoginEvent {
  time: number;
  ip: string | null;
  userAgent: string | null;
  result: events.LoginResult;
}

/**
 * Password login. The same answer (AUTH_BAD_CREDENTIALS) and about the same time for an unknown
 * name and a wrong password, so a login attempt never tells whether an account exists. The
 * account's state (inactive, suspended) is revealed only to someone who knows the password.
 * Every attempt is written to the login log.
 */
export class AuthService {
  private readonly database: Database;
  private readonly sessions: SessionsService;

  constructor(database: Database, sessions: SessionsService) {
    this.database = database;
    this.sessions = sessions;
  }

  async login(
    loginName: string,
    password: string,
    client: ClientInfo = {},
  ): Promise<{ token: string; ctx: Ctx }> {
    const now = Date.now();
    const user = await users.findByLoginName(this.database, loginName);
    const log = (result: events.LoginResult) =>
      events.insertLoginEvent(
        this.database,
        {
          accountId: user?.account_id ?? null,
          userId: user?.id ?? null,
          loginName,
          ip: client.ip ?? null,
          userAgent: client.userAgent ?? null,
          result,
        },
        now,
      );

    if (user?.locked_until && user.locked_until > now) {
      await log('locked');
      throw new AppError('AUTH_LOCKED', { minutes: Math.ceil((user.locked_until - now) / 60_000) });
    }
    const valid = await verifyPassword(password, user?.password_hash ?? null);
    if (!user || !valid) {
      await log('bad_credentials');
      if (!user) throw new AppError('AUTH_BAD_CREDENTIALS');
      const lock = user.failed_logins + 1 >= LOCKOUT_THRESHOLD;
      await users.recordFailedLogin(this.database, user.id, lock ? now + LOCKOUT_MS : null);
      if (lock) throw new AppError('AUTH_LOCKED', { minutes: LOCKOUT_MS / 60_000 });
      throw new AppError('AUTH_BAD_CREDENTIALS');
    }
    if (user.status === 'suspended') {
      await log('suspended');
      throw new AppError('ACCOUNT_SUSPENDED');
    }
    if (user.status === 'inactive') {
      await log('inactive');
      throw new AppError('ACCOUNT_NOT_ACTIVE');
    }
    await users.resetFailedLogins(this.database, user.id);
    await log('success');
    const ctx = { accountId: user.account_id, userId: user.id };
    return { token: await this.sessions.create(ctx, client), ctx };
  }

  /**
   * Whether the next login with this name needs an image code. Counted by name, whether or not an
   * account has it, so the question reveals nothing.
   */
  async needsCaptcha(loginName: string): Promise<boolean> {
    const failures = await events.recentFailures(this.database, loginName, Date.now() - LOCKOUT_MS);
    return failures >= CAPTCHA_AFTER_FAILURES;
  }

  async loginLog(ctx: Ctx, limit = 50): Promise<LoginEvent[]> {
    const rows = await events.listLoginEvents(this.database, ctx.accountId, ctx.userId, limit);
    return rows.map((r) => ({ time: r.created_at, ip: r.ip, userAgent: r.user_agent, result: r.result }));
  }
}
