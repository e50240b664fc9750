import { AppError, type Lang } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { SessionCaller, UserCaller } from '../context.ts';
import type { RegistrationService } from '../registration/registration.service.ts';
import type { SensitiveVerificationService } from '../sensitive-verification/sensitive-verification.service.ts';
import type { VerificationCodesService } from '../verification/verification-codes.service.ts';
import * as repo from './profile.repo.ts';

/** Purpose of the code sent to a phone number the user wants to switch to. */
export const NEW_PHONE_PURPOSE = 'changePhone';

export interface ProfileDeps {
  database: Database;
  registration: RegistrationService;
  verification: SensitiveVerificationService;
  codes: VerificationCodesService;
}

/**
 * The user's own details (console-spec §7 `/userInfo/*`). Changing what identifies the user (user
 * name, login email, phone) needs a recent sensitive-operation verification of the session; a new
 * phone must also prove it receives SMS, by a code sent to it.
 */
export class ProfileService {
  private readonly deps: ProfileDeps;

  constructor(deps: ProfileDeps) {
    this.deps = deps;
  }

  async contactInfo(ctx: UserCaller) {
    const user = await this.load(ctx);
    return { email: user.email, phone: user.phone, receiveEmail: user.receive_email ?? user.email };
  }

  /** The account's main user, as members see it too. */
  async primary(ctx: UserCaller) {
    const owner = await repo.findOwner(this.deps.database, ctx.accountId);
    if (!owner) throw new AppError('COMMON_NOT_FOUND', { entity: 'Account' });
    return {
      accountId: ctx.accountId,
      userName: owner.username,
      email: owner.email,
      createdAt: owner.created_at,
    };
  }

  /** Which details the user still has to fill in before every feature is open to them. */
  async completeness(ctx: UserCaller) {
    const user = await this.load(ctx);
    const missing = [user.phone ? null : 'phone'].filter((f): f is string => f !== null);
    return { complete: missing.length === 0, missing };
  }

  async changeUserName(session: SessionCaller, userName: string): Promise<void> {
    await this.deps.verification.requireRecentVerification(session);
    const user = await this.load(session);
    if (user.username === userName) return;
    await this.deps.registration.checkUserName(userName);
    await this.update(session, 'username', userName);
  }

  async changeEmail(session: SessionCaller, email: string): Promise<void> {
    await this.deps.verification.requireRecentVerification(session);
    const user = await this.load(session);
    if (user.email.toLowerCase() === email.toLowerCase()) return;
    await this.deps.registration.checkEmail(email);
    await this.update(session, 'email', email);
  }

  async sendNewPhoneCode(_ctx: UserCaller, phone: string, lang: Lang) {
    await this.deps.registration.checkPhone(phone);
    return this.deps.codes.send(NEW_PHONE_PURPOSE, 'sms', phone, lang);
  }

  async changePhone(session: SessionCaller, phone: string, code: string): Promise<void> {
    await this.deps.verification.requireRecentVerification(session);
    await this.deps.registration.checkPhone(phone);
    await this.deps.codes.requireValid(NEW_PHONE_PURPOSE, 'sms', phone, code);
    await this.update(session, 'phone', phone);
  }

  async setReceiveEmail(ctx: UserCaller, email: string | null): Promise<void> {
    await this.update(ctx, 'receive_email', email);
  }

  changePassword(session: SessionCaller, oldPassword: string, newPassword: string): Promise<void> {
    return this.deps.registration.changePassword(session, oldPassword, newPassword);
  }

  private async load(ctx: UserCaller) {
    const user = await repo.findProfile(this.deps.database, ctx.accountId, ctx.userId);
    if (!user) throw new AppError('AUTH_REQUIRED');
    return user;
  }

  private update(ctx: UserCaller, field: repo.ProfileField, value: string | null) {
    return repo.updateProfileField(this.deps.database, ctx.accountId, ctx.userId, field, value, Date.now());
  }
}
