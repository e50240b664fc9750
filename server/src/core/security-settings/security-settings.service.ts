import type { SecuritySetting } from '@herald/shared';
import { AppError, type LoginVerifyMode, maskEmail, maskPhone, type VerifyWay } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { SessionCaller } from '../context.ts';
import type { IpWhitelistService } from '../ip-whitelist/ip-whitelist.service.ts';
import type { SensitiveVerificationService } from '../sensitive-verification/sensitive-verification.service.ts';
import * as repo from './security-settings.repo.ts';
import { availableWays, loadUserSecurity } from './user-security.ts';

/**
 * The user's verification settings: login protection (off, always, or new IP only, and its way),
 * download verification and sensitive-operation verification. Changing any of them is itself a
 * sensitive operation: it needs a verification of this session in the last ten minutes, whatever
 * the switches say.
 */
export class SecuritySettingsService {
  private readonly database: Database;
  private readonly verification: SensitiveVerificationService;
  private readonly whitelist: IpWhitelistService;

  constructor(deps: {
    database: Database;
    verification: SensitiveVerificationService;
    whitelist: IpWhitelistService;
  }) {
    this.database = deps.database;
    this.verification = deps.verification;
    this.whitelist = deps.whitelist;
  }

  async get(session: SessionCaller): Promise<SecuritySetting> {
    const user = await loadUserSecurity(this.database, session);
    const whitelist = await this.whitelist.get(session);
    return {
      loginVerify: user.loginVerify,
      loginVerifyWay: user.loginVerifyWay,
      downloadVerify: user.downloadVerify,
      sensitiveVerify: user.sensitiveVerify,
      googleAuthBound: user.totpBound,
      ipWhitelistSwitch: whitelist.enabled,
      ipWhitelistCount: whitelist.ips.length,
      phone: user.phone ? maskPhone(user.phone) : null,
      email: maskEmail(user.email),
      ways: availableWays(user),
      isOwner: user.isOwner,
      ...(await this.verification.verifiedUntil(session)),
    };
  }

  /** Login protection; the way must be one the user can use (a phone for SMS, a bound authenticator). */
  async setLoginVerify(
    session: SessionCaller,
    input: { mode: LoginVerifyMode; way?: VerifyWay | undefined },
  ): Promise<SecuritySetting> {
    await this.verification.requireRecentVerification(session, { always: true });
    const user = await loadUserSecurity(this.database, session);
    const way = input.way ?? user.loginVerifyWay;
    if (input.mode !== 'off' && !availableWays(user).includes(way)) {
      throw new AppError(way === 'google' ? 'GOOGLE_AUTH_NOT_BOUND' : 'VERIFY_WAY_UNAVAILABLE');
    }
    await this.write(session, { login_verify: input.mode, login_verify_way: way });
    return this.get(session);
  }

  async setDownloadVerify(session: SessionCaller, enabled: boolean): Promise<SecuritySetting> {
    await this.verification.requireRecentVerification(session, { always: true });
    await this.write(session, { download_verify: enabled ? 1 : 0 });
    return this.get(session);
  }

  async setSensitiveVerify(session: SessionCaller, enabled: boolean): Promise<SecuritySetting> {
    await this.verification.requireRecentVerification(session, { always: true });
    await this.write(session, { sensitive_verify: enabled ? 1 : 0 });
    return this.get(session);
  }

  private write(session: SessionCaller, patch: Parameters<typeof repo.upsertSettings>[3]): Promise<void> {
    return repo.upsertSettings(this.database, session.accountId, session.userId, patch, Date.now());
  }
}
