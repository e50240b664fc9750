import {
  AppError,
  type Lang,
  type VerifyCodeSent,
  type VerifyWay,
  type VerifyWaysView,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { SessionCaller, UserCaller } from '../context.ts';
import type { IdentityCheck } from '../security-settings/identity-check.ts';
import { availableWays, describeWays, loadUserSecurity } from '../security-settings/user-security.ts';
import * as repo from './session-verification.repo.ts';

/** A verification lasts this long on the session it was made in (console-spec §7 "Security"). */
export const VERIFICATION_TTL_MS = 10 * 60_000;

export type VerificationKind = 'sensitive' | 'download';

const COLUMN = {
  sensitive: 'sensitive_verified_until',
  download: 'download_verified_until',
} as const satisfies Record<VerificationKind, repo.VerificationColumn>;

/**
 * Sensitive-operation and download verification (`/verify/*`). Proving who you are (a code by
 * SMS or email, or the authenticator's) marks the current session, and only it, as verified for
 * ten minutes; sensitive and download verification are separate marks. Routes that change
 * something sensitive call requireRecentVerification first. Security settings themselves always
 * ask (`always`); other sensitive operations ask when the user's "sensitive-operation
 * verification" switch is on (the default), downloads when "download verification" is on.
 */
export class SensitiveVerificationService {
  private readonly database: Database;
  private readonly identity: IdentityCheck;
  private readonly now: () => number;

  constructor(database: Database, identity: IdentityCheck, options: { now?: () => number } = {}) {
    this.database = database;
    this.identity = identity;
    this.now = options.now ?? Date.now;
  }

  /** The ways the user can verify with (masked targets) and what this session holds already. */
  async ways(session: SessionCaller): Promise<VerifyWaysView> {
    const user = await loadUserSecurity(this.database, session);
    return { ways: describeWays(user, availableWays(user)), ...(await this.verifiedUntil(session)) };
  }

  async sendCode(ctx: UserCaller, way: 'sms' | 'email', lang: Lang): Promise<VerifyCodeSent> {
    const user = await loadUserSecurity(this.database, ctx);
    return this.identity.sendCode(user, 'sensitiveVerify', way, availableWays(user), lang);
  }

  async verify(
    session: SessionCaller,
    kind: VerificationKind,
    way: VerifyWay,
    code: string,
  ): Promise<{ verifiedUntil: number }> {
    const user = await loadUserSecurity(this.database, session);
    await this.identity.require(user, 'sensitiveVerify', way, code, availableWays(user));
    const verifiedUntil = this.now() + VERIFICATION_TTL_MS;
    if (!(await repo.markVerified(this.database, session, COLUMN[kind], verifiedUntil))) {
      throw new AppError('AUTH_REQUIRED');
    }
    return { verifiedUntil };
  }

  async verifiedUntil(
    session: SessionCaller,
  ): Promise<{ sensitiveVerifiedUntil: number | null; downloadVerifiedUntil: number | null }> {
    const row = await repo.findVerification(this.database, session);
    const now = this.now();
    const live = (until: number | null | undefined) => (until && until > now ? until : null);
    return {
      sensitiveVerifiedUntil: live(row?.sensitive_verified_until),
      downloadVerifiedUntil: live(row?.download_verified_until),
    };
  }

  /**
   * Throws VERIFY_REQUIRED (or VERIFY_DOWNLOAD_REQUIRED) unless the session was verified in the
   * last ten minutes or the user's settings do not ask for it. `always` ignores the user's
   * switch: for the security settings themselves.
   */
  async requireRecentVerification(
    session: SessionCaller,
    options: { kind?: VerificationKind; always?: boolean } = {},
  ): Promise<void> {
    const kind = options.kind ?? 'sensitive';
    if (!options.always) {
      const user = await loadUserSecurity(this.database, session);
      if (!(kind === 'download' ? user.downloadVerify : user.sensitiveVerify)) return;
    }
    const held = await this.verifiedUntil(session);
    if ((kind === 'download' ? held.downloadVerifiedUntil : held.sensitiveVerifiedUntil) !== null) return;
    throw new AppError(kind === 'download' ? 'VERIFY_DOWNLOAD_REQUIRED' : 'VERIFY_REQUIRED');
  }
}
