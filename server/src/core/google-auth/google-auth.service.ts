import { AppError, type GoogleQrCodeView } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { generateTotpSecret, otpauthUri, totpQrDataUrl, verifyTotp } from '../auth/totp.ts';
import type { UserCaller } from '../context.ts';
import * as repo from '../security-settings/security-settings.repo.ts';
import { loadUserSecurity } from '../security-settings/user-security.ts';

/** How long a QR code shown for binding stays good for its confirming code. */
export const TOTP_PENDING_MS = 10 * 60_000;

/** Sealed secrets are bound to their user: one copied onto another row does not open. */
const sealContext = (ctx: UserCaller) => `totp:${ctx.accountId}:${ctx.userId}`;

/**
 * The Google authenticator (any RFC 6238 app). Binding is two steps: the QR code carries a new
 * secret held as pending, and a code from the app proves it was scanned, which moves it into
 * place. Secrets are stored sealed (SecretBox), never in clear. Every accepted code records its
 * 30-second step and a code of that step or an earlier one is refused, so a code read over a
 * shoulder or from a log cannot be used again.
 */
export class GoogleAuthService {
  private readonly database: Database;
  private readonly box: SecretBox;
  private readonly now: () => number;

  constructor(database: Database, box: SecretBox, options: { now?: () => number } = {}) {
    this.database = database;
    this.box = box;
    this.now = options.now ?? Date.now;
  }

  /** A new pending secret and its QR code; `secret` is for typing in by hand. */
  async qrCode(ctx: UserCaller): Promise<GoogleQrCodeView> {
    const user = await loadUserSecurity(this.database, ctx);
    if (user.totpBound) throw new AppError('GOOGLE_AUTH_ALREADY_BOUND');
    const secret = generateTotpSecret();
    const now = this.now();
    await repo.upsertSettings(
      this.database,
      ctx.accountId,
      ctx.userId,
      {
        totp_pending: this.box.seal(secret, sealContext(ctx)),
        totp_pending_expires_at: now + TOTP_PENDING_MS,
      },
      now,
    );
    const otpauthUrl = otpauthUri(user.username, secret);
    return { qrCode: await totpQrDataUrl(otpauthUrl), secret, otpauthUrl, expiresIn: TOTP_PENDING_MS / 1000 };
  }

  /** Binds the pending secret when the code matches it. */
  async bind(ctx: UserCaller, code: string): Promise<void> {
    const row = await repo.findTotp(this.database, ctx.accountId, ctx.userId);
    if (row?.totp_secret) throw new AppError('GOOGLE_AUTH_ALREADY_BOUND');
    const now = this.now();
    if (!row?.totp_pending || (row.totp_pending_expires_at ?? 0) <= now) {
      throw new AppError('GOOGLE_AUTH_QR_EXPIRED');
    }
    const step = verifyTotp(this.box.open(row.totp_pending, sealContext(ctx)), code, now);
    if (step === null) throw new AppError('TOTP_CODE_INVALID');
    const bound = await repo.bindTotp(
      this.database,
      ctx.accountId,
      ctx.userId,
      { pending: row.totp_pending, step },
      now,
    );
    if (!bound) throw new AppError('GOOGLE_AUTH_ALREADY_BOUND');
  }

  /** Whether the code is the bound authenticator's, for a step not used before (then recorded). */
  async verifyCode(ctx: UserCaller, code: string): Promise<boolean> {
    const row = await repo.findTotp(this.database, ctx.accountId, ctx.userId);
    if (!row?.totp_secret) return false;
    const secret = this.box.open(row.totp_secret, sealContext(ctx));
    const step = verifyTotp(secret, code, this.now(), 1, row.totp_last_step);
    if (step === null) return false;
    return repo.useTotpStep(this.database, ctx.accountId, ctx.userId, step);
  }

  /** Checks a code of the bound authenticator: TOTP_CODE_INVALID when it is wrong or used. */
  async check(ctx: UserCaller, code: string): Promise<void> {
    const user = await loadUserSecurity(this.database, ctx);
    if (!user.totpBound) throw new AppError('GOOGLE_AUTH_NOT_BOUND');
    if (!(await this.verifyCode(ctx, code))) throw new AppError('TOTP_CODE_INVALID');
  }

  /**
   * Removes the binding. Refused while login verification is on and asks for the authenticator:
   * the user must pick another way first, so unbinding never silently weakens their login.
   */
  async unbind(ctx: UserCaller): Promise<void> {
    const user = await loadUserSecurity(this.database, ctx);
    if (!user.totpBound) throw new AppError('GOOGLE_AUTH_NOT_BOUND');
    if (user.loginVerify !== 'off' && user.loginVerifyWay === 'google') {
      throw new AppError('GOOGLE_AUTH_IN_USE');
    }
    await repo.upsertSettings(
      this.database,
      ctx.accountId,
      ctx.userId,
      {
        totp_secret: null,
        totp_bound_at: null,
        totp_last_step: null,
        totp_pending: null,
        totp_pending_expires_at: null,
        ...(user.loginVerifyWay === 'google' ? { login_verify_way: 'email' as const } : {}),
      },
      this.now(),
    );
  }
}
