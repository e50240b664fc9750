import { AppError, type LoginLogView, type VerifyWay } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import * as accounts from '../accounts/accounts.repo.ts';
import type { UserCaller } from '../context.ts';
import type { SessionsService } from '../sessions/sessions.service.ts';
import * as users from '../users/users.repo.ts';
import * as events from './login-events.repo.ts';
import { verifyPassword } from './password.ts';

/**
 * Failures that lock a user out from one client address, within how long, and for how long:
 * LOCKOUT_THRESHOLD failures from an address in LOCKOUT_MS lock that address out until the oldest
 * of them is LOCKOUT_MS old. Other addresses are not locked (someone who knows a login name
 * cannot lock its user out); they meet the image code after CAPTCHA_AFTER_FAILURES failures for
 * the name from anywhere.
 */
export const LOCKOUT_THRESHOLD = 5;
export const LOCKOUT_MS = 15 * 60_000;
/** After this many recent failures for a login name, its next attempt must carry an image code. */
export const CAPTCHA_AFTER_FAILURES = 3;

export interface ClientInfo {
  ip?: string;
  userAgent?: string;
}

/** A login whose password was right but which needs a second step (login protection). */
export interface PendingLogin {
  /** Short-lived token of the second step; only its hash is stored. */
  verifyToken: string;
  /** The ways the second step accepts (sms, email, google). */
  ways: VerifyWay[];
  expiresIn: number;
}

export type LoginOutcome =
  | { verifyRequired: false; token: string; ctx: UserCaller }
  | ({ verifyRequired: true; ctx: UserCaller } & PendingLogin);

/**
 * What the account's security settings add to a password login (core/login-protection): the IP
 * whitelist and the second step. Optional so the command line and tests can log in bare.
 */
export interface LoginGuard {
  /** Throws IP_NOT_WHITELISTED when the account admits no logins from this address. */
  requireAllowedAddress(ctx: UserCaller, ip: string | undefined): Promise<void>;
  /** The pending login when this login needs a second step, else null. */
  secondStep(ctx: UserCaller, loginName: string, client: ClientInfo): Promise<PendingLogin | null>;
}

/**
 * Password login. The same answer (AUTH_BAD_CREDENTIALS) and about the same time for an unknown
 * name and a wrong password, so a login attempt never tells whether an account exists. The
 * account's state (inactive, suspended), its IP whitelist and its login protection come into play
 * only for someone who knows the password. A login that needs a second step gets no session and
 * keeps the failure count: it is reset only when the second step succeeds (finishLogin), and a
 * wrong second-step code counts like a wrong password (recordSecondStepFailure). Every attempt is
 * written to the login log, which is also what the lockout counts.
 */
export class AuthService {
  private readonly database: Database;
  private readonly sessions: SessionsService;
  private readonly guard: LoginGuard | undefined;

  constructor(database: Database, sessions: SessionsService, guard?: LoginGuard) {
    this.database = database;
    this.sessions = sessions;
    this.guard = guard;
  }

  async login(loginName: string, password: string, client: ClientInfo = {}): Promise<LoginOutcome> {
    const now = Date.now();
    const user = await users.findByLoginName(this.database, loginName);
    const log = (result: events.LoginResult) =>
      this.log(user ? { accountId: user.account_id, userId: user.id } : null, loginName, client, result, now);

    if (user) await this.requireNotLocked({ accountId: user.account_id, userId: user.id }, loginName, client);
    const valid = await verifyPassword(password, user?.password_hash ?? null);
    if (!user || !valid) {
      await log('bad_credentials');
      if (!user) throw new AppError('AUTH_BAD_CREDENTIALS');
      await this.throwIfNowLocked(user.id, client, now);
      throw new AppError('AUTH_BAD_CREDENTIALS');
    }
    return this.admit({ accountId: user.account_id, userId: user.id }, user.status, loginName, client, log);
  }

  /**
   * A login whose identity another party vouched for (a scanned WeChat bound to the user): no
   * password, but the same lockout, account state, IP whitelist, second step and login log.
   */
  async loginVouched(ctx: UserCaller, client: ClientInfo = {}): Promise<LoginOutcome> {
    const now = Date.now();
    const user = await users.findUser(this.database, ctx.accountId, ctx.userId);
    if (!user) throw new AppError('AUTH_REQUIRED');
    const log = (result: events.LoginResult) => this.log(ctx, user.username, client, result, now);
    await this.requireNotLocked(ctx, user.username, client);
    return this.admit(ctx, user.status, user.username, client, log);
  }

  /** The checks after the identity is proven: account state, IP whitelist, second step, session. */
  private async admit(
    ctx: UserCaller,
    status: 'inactive' | 'active' | 'suspended',
    loginName: string,
    client: ClientInfo,
    log: (result: events.LoginResult) => Promise<void>,
  ): Promise<LoginOutcome> {
    // A suspended user, or a user of a suspended account (operators: accounts:suspend); a frozen
    // account still logs in, to see its state and settle it, but sends nothing.
    if (status === 'suspended' || (await accounts.findState(this.database, ctx.accountId)) === 'suspended') {
      await log('suspended');
      throw new AppError('ACCOUNT_SUSPENDED');
    }
    if (status === 'inactive') {
      await log('inactive');
      throw new AppError('ACCOUNT_NOT_ACTIVE');
    }
    if (this.guard) {
      try {
        await this.guard.requireAllowedAddress(ctx, client.ip);
      } catch (error) {
        await log('ip_refused');
        throw error;
      }
      const pending = await this.guard.secondStep(ctx, loginName, client);
      if (pending) {
        await log('verify_required');
        return { verifyRequired: true, ctx, ...pending };
      }
    }
    return { verifyRequired: false, ...(await this.finishLogin(ctx, loginName, client)) };
  }

  /** A login that passed every check (and its second step, if any): a session and a clean slate. */
  async finishLogin(
    ctx: UserCaller,
    loginName: string,
    client: ClientInfo,
  ): Promise<{ token: string; ctx: UserCaller }> {
    await this.log(ctx, loginName, client, 'success', Date.now());
    return { token: await this.sessions.create(ctx, client), ctx };
  }

  /**
   * A wrong second-step code, counted like a wrong password: logged, and the user is locked out
   * from this address when it is the LOCKOUT_THRESHOLD-th failure (then AUTH_LOCKED is thrown).
   */
  async recordSecondStepFailure(ctx: UserCaller, loginName: string, client: ClientInfo): Promise<void> {
    const now = Date.now();
    await this.log(ctx, loginName, client, 'verify_failed', now);
    await this.throwIfNowLocked(ctx.userId, client, now);
  }

  /** Refuses an attempt while the user is locked out from this address (logged as a locked attempt). */
  async requireNotLocked(ctx: UserCaller, loginName: string, client: ClientInfo): Promise<void> {
    const now = Date.now();
    const until = await this.lockedUntil(ctx.userId, client, now);
    if (until === null) return;
    await this.log(ctx, loginName, client, 'locked', now);
    throw new AppError('AUTH_LOCKED', { minutes: Math.ceil((until - now) / 60_000) });
  }

  /** After a failure was logged: AUTH_LOCKED when it was the one that locks this address out. */
  private async throwIfNowLocked(userId: number, client: ClientInfo, now: number): Promise<void> {
    const until = await this.lockedUntil(userId, client, now);
    if (until !== null) throw new AppError('AUTH_LOCKED', { minutes: Math.ceil((until - now) / 60_000) });
  }

  /** When the lockout of this user from this client address ends, or null when it is not locked out. */
  private async lockedUntil(userId: number, client: ClientInfo, now: number): Promise<number | null> {
    const failures = await events.failuresFrom(
      this.database,
      userId,
      client.ip ?? null,
      now - LOCKOUT_MS,
      LOCKOUT_THRESHOLD,
    );
    if (failures.length < LOCKOUT_THRESHOLD) return null;
    return (failures[LOCKOUT_THRESHOLD - 1] as number) + LOCKOUT_MS;
  }

  /**
   * Whether the next login with this name needs an image code. Counted by name, whether or not an
   * account has it, so the question reveals nothing.
   */
  async needsCaptcha(loginName: string): Promise<boolean> {
    const failures = await events.recentFailures(this.database, loginName, Date.now() - LOCKOUT_MS);
    return failures >= CAPTCHA_AFTER_FAILURES;
  }

  async loginLog(ctx: UserCaller, limit = 50): Promise<LoginLogView[]> {
    const rows = await events.listLoginEvents(this.database, ctx.accountId, ctx.userId, limit);
    return rows.map((r) => ({ time: r.created_at, ip: r.ip, userAgent: r.user_agent, result: r.result }));
  }

  private log(
    ctx: UserCaller | null,
    loginName: string,
    client: ClientInfo,
    result: events.LoginResult,
    now: number,
  ): Promise<void> {
    return events.insertLoginEvent(
      this.database,
      {
        accountId: ctx?.accountId ?? null,
        userId: ctx?.userId ?? null,
        loginName,
        ip: client.ip ?? null,
        userAgent: client.userAgent ?? null,
        result,
      },
      now,
    );
  }
}
