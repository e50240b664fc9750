import {
  AppError,
  type CodeSent,
  type Lang,
  type RegisterInput,
  type RegisterVerificationWay,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { AccountTokensService } from '../account-tokens/account-tokens.service.ts';
import type { AccountsService } from '../accounts/accounts.service.ts';
import { hashPassword, verifyPassword } from '../auth/password.ts';
import type { SessionCaller, UserCaller } from '../context.ts';
import type { RateLimiter } from '../rate-limit/rate-limiter.ts';
import type { SessionsService } from '../sessions/sessions.service.ts';
import * as users from '../users/users.repo.ts';
import {
  CODE_RESEND_INTERVAL_MS,
  type VerificationCodesService,
} from '../verification/verification-codes.service.ts';
import { activationMail, passwordResetMail, type SystemMailer } from './account-mail.ts';

export interface RegistrationDeps {
  database: Database;
  accounts: AccountsService;
  tokens: AccountTokensService;
  sessions: SessionsService;
  mailer: SystemMailer;
  /** Base of the links in mails, e.g. https://herald.example.com */
  publicUrl: string;
  /** Codes texted to the phone being signed up with. */
  codes: VerificationCodesService;
  /** Sign-up proves the phone by an SMS code: true when an SMS carrier is configured. */
  smsRequired: boolean;
  /** Counts wrong current passwords (PASSWORD_CHECK_LIMIT); none in tools that do not need it. */
  limiter?: RateLimiter;
}

/** Wrong current passwords a user may give when changing it, per window, before a pause. */
export const PASSWORD_CHECK_LIMIT = { tries: 5, windowMs: 15 * 60_000 };

/** Purpose of the code texted to a phone during sign-up. */
export const REGISTER_PURPOSE = 'register';

/**
 * Sign-up and the emailed-link flows: activation, forgotten password, and changing a password.
 * A new account is inactive until its activation link is used. The forgotten-password answer is
 * the same whether or not the address belongs to an account.
 */
export class RegistrationService {
  private readonly deps: RegistrationDeps;

  constructor(deps: RegistrationDeps) {
    this.deps = deps;
  }

  async checkUserName(userName: string): Promise<void> {
    if (await users.isUserNameTaken(this.deps.database, userName)) throw new AppError('USER_NAME_TAKEN');
  }

  async checkEmail(email: string): Promise<void> {
    if (await users.isEmailTaken(this.deps.database, email)) throw new AppError('EMAIL_TAKEN');
  }

  async checkPhone(phone: string): Promise<void> {
    if (await users.isPhoneTaken(this.deps.database, phone)) throw new AppError('PHONE_TAKEN');
  }

  /** What sign-up asks for besides the form (`/access/register/verification/way`). */
  verificationWay(): RegisterVerificationWay {
    return { smsCode: this.deps.smsRequired, resendAfterSeconds: CODE_RESEND_INTERVAL_MS / 1000 };
  }

  /**
   * Texts a sign-up code to a phone no account uses yet. The verification codes' limits apply
   * (one a minute, 5 an hour, 10 a day per phone); the route adds a per-IP allowance.
   */
  async sendRegisterCode(phone: string, lang: Lang): Promise<CodeSent> {
    if (!this.deps.smsRequired) throw new AppError('SMS_CARRIER_NOT_CONFIGURED');
    await this.checkPhone(phone);
    return this.deps.codes.send(REGISTER_PURPOSE, 'sms', phone, lang);
  }

  async register(input: RegisterInput, lang: Lang): Promise<UserCaller> {
    await this.checkUserName(input.userName);
    await this.checkEmail(input.email);
    await this.checkPhone(input.phone);
    if (this.deps.smsRequired) {
      if (!input.smsCode) {
        throw new AppError('COMMON_VALIDATION_FAILED', {}, [
          { field: 'smsCode', message: 'smsCodeRequired' },
        ]);
      }
      await this.deps.codes.requireValid(REGISTER_PURPOSE, 'sms', input.phone, input.smsCode);
    }
    let ctx: UserCaller;
    try {
      ctx = await this.deps.accounts.createWithOwner({
        username: input.userName,
        email: input.email,
        phone: input.phone,
        passwordHash: await hashPassword(input.password),
        status: 'inactive',
      });
    } catch (error) {
      // Two sign-ups racing for the same name: the database's unique index decides.
      await this.checkUserName(input.userName);
      await this.checkEmail(input.email);
      throw error;
    }
    await this.sendActivation(ctx, lang);
    return ctx;
  }

  /** Sends a fresh activation link to an inactive account found by user name or email; silent otherwise. */
  async resendActivation(loginName: string, lang: Lang): Promise<void> {
    const user = await users.findByLoginName(this.deps.database, loginName);
    if (user?.status !== 'inactive') return;
    await this.sendActivation({ accountId: user.account_id, userId: user.id }, lang);
  }

  async activate(token: string): Promise<UserCaller> {
    const ctx = await this.deps.tokens.consume(token, 'activation');
    if (!ctx) throw new AppError('ACTIVATION_LINK_INVALID');
    const user = await users.findUserForMail(this.deps.database, ctx.accountId, ctx.userId);
    if (user?.status === 'inactive') await this.deps.accounts.setStatus(ctx, 'active');
    return ctx;
  }

  async forgotPassword(email: string, lang: Lang): Promise<void> {
    const user = await users.findByLoginName(this.deps.database, email);
    if (!user || user.status === 'suspended') return;
    const ctx = { accountId: user.account_id, userId: user.id };
    const token = await this.deps.tokens.issue(ctx, 'password_reset');
    const row = await users.findUserForMail(this.deps.database, ctx.accountId, ctx.userId);
    const link = `${this.deps.publicUrl}/resetPassword?token=${encodeURIComponent(token)}&lang=${lang}`;
    const mail = passwordResetMail(lang, user.username, link);
    await this.deps.mailer.sendEmail({ to: row!.email, ...mail });
  }

  /** Sets the new password from a reset link and ends every session of the user. */
  async resetPassword(token: string, password: string): Promise<void> {
    const ctx = await this.deps.tokens.consume(token, 'password_reset');
    if (!ctx) throw new AppError('RESET_LINK_INVALID');
    await this.deps.accounts.setPasswordHash(ctx, await hashPassword(password));
    await this.deps.sessions.revokeAll(ctx);
  }

  /** Sets a new password after checking the old one, and ends the user's other sessions. */
  async changePassword(session: SessionCaller, oldPassword: string, newPassword: string): Promise<void> {
    const limiter = this.deps.limiter;
    const key = `${session.accountId}:${session.userId}`;
    const { tries, windowMs } = PASSWORD_CHECK_LIMIT;
    const state = limiter ? await limiter.check('password-check', key, tries, windowMs) : undefined;
    if (state && !state.allowed) {
      throw new AppError('PASSWORD_CHECK_LOCKED', {
        minutes: Math.max(1, Math.ceil(state.retryAfterMs / 60_000)),
      });
    }
    const user = await users.findUserForMail(this.deps.database, session.accountId, session.userId);
    if (!user || !(await verifyPassword(oldPassword, user.password_hash))) {
      await limiter?.hit('password-check', key, tries, windowMs);
      throw new AppError('PASSWORD_OLD_INCORRECT');
    }
    await this.deps.accounts.setPasswordHash(session, await hashPassword(newPassword));
    await this.deps.sessions.revokeOthers(session);
  }

  private async sendActivation(ctx: UserCaller, lang: Lang): Promise<void> {
    const user = await users.findUserForMail(this.deps.database, ctx.accountId, ctx.userId);
    if (!user) return;
    const token = await this.deps.tokens.issue(ctx, 'activation');
    const link = `${this.deps.publicUrl}/v3/access/register/regConfirm?token=${encodeURIComponent(token)}&lang=${lang}`;
    await this.deps.mailer.sendEmail({ to: user.email, ...activationMail(lang, user.username, link) });
  }
}
