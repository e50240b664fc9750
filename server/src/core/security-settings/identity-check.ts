import { AppError, type Lang, type VerifyCodeSent, type VerifyWay } from '@herald/shared';
import type { GoogleAuthService } from '../google-auth/google-auth.service.ts';
import type { VerificationCodesService } from '../verification/verification-codes.service.ts';
import { describeWays, targetOf, type UserSecurity } from './user-security.ts';

/** Purposes of the codes this module sends; a code answers only its own purpose. */
export type IdentityPurpose = 'loginVerify' | 'sensitiveVerify';

/**
 * Proving who you are by one of the ways of the security settings: a code sent by SMS or email
 * to the user's own phone or address (never to one given in the request), or the bound
 * authenticator's code. Used by the second login step and by sensitive-operation verification.
 */
export class IdentityCheck {
  private readonly codes: VerificationCodesService;
  private readonly google: GoogleAuthService;

  constructor(codes: VerificationCodesService, google: GoogleAuthService) {
    this.codes = codes;
    this.google = google;
  }

  async sendCode(
    user: UserSecurity,
    purpose: IdentityPurpose,
    way: 'sms' | 'email',
    allowed: readonly VerifyWay[],
    lang: Lang,
  ): Promise<VerifyCodeSent> {
    const target = allowed.includes(way) ? targetOf(user, way) : null;
    if (!target) throw new AppError('VERIFY_WAY_UNAVAILABLE');
    const sent = await this.codes.send(purpose, way, target, lang);
    const [described] = describeWays(user, [way]);
    return { way, target: described?.target ?? null, ...sent };
  }

  /**
   * Throws unless the code is right for the way: VERIFY_WAY_UNAVAILABLE (the way is not allowed
   * here, not a wrong code), VERIFY_CODE_INVALID / VERIFY_CODE_ATTEMPTS_EXCEEDED, TOTP_CODE_INVALID.
   */
  async require(
    user: UserSecurity,
    purpose: IdentityPurpose,
    way: VerifyWay,
    code: string,
    allowed: readonly VerifyWay[],
  ): Promise<void> {
    if (!allowed.includes(way)) throw new AppError('VERIFY_WAY_UNAVAILABLE');
    if (way === 'google') {
      if (!(await this.google.verifyCode(user, code))) throw new AppError('TOTP_CODE_INVALID');
      return;
    }
    const target = targetOf(user, way);
    if (!target) throw new AppError('VERIFY_WAY_UNAVAILABLE');
    await this.codes.requireValid(purpose, way, target, code);
  }
}

/** The errors that mean "wrong code" (what counts towards a lockout), as opposed to a refusal. */
export const WRONG_CODE_ERRORS = new Set([
  'VERIFY_CODE_INVALID',
  'VERIFY_CODE_ATTEMPTS_EXCEEDED',
  'TOTP_CODE_INVALID',
]);
