import {
  AppError,
  type LoginVerifyMode,
  maskEmail,
  maskPhone,
  type VerifyWay,
  type VerifyWayOption,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { UserCaller } from '../context.ts';
import * as repo from './security-settings.repo.ts';

/** A user's contact details, login state and security settings, defaults filled in. */
export interface UserSecurity extends UserCaller {
  username: string;
  email: string;
  phone: string | null;
  isOwner: boolean;
  status: 'inactive' | 'active' | 'suspended';
  loginVerify: LoginVerifyMode;
  loginVerifyWay: VerifyWay;
  downloadVerify: boolean;
  sensitiveVerify: boolean;
  totpBound: boolean;
  protectedLoginAckAt: number | null;
}

export async function loadUserSecurity(database: Database, ctx: UserCaller): Promise<UserSecurity> {
  const row = await repo.findUserSecurity(database, ctx.accountId, ctx.userId);
  if (!row) throw new AppError('AUTH_REQUIRED');
  return {
    accountId: row.account_id,
    userId: row.id,
    username: row.username,
    email: row.email,
    phone: row.phone || null,
    isOwner: row.is_owner === 1,
    status: row.status,
    loginVerify: row.login_verify ?? 'off',
    loginVerifyWay: row.login_verify_way ?? 'email',
    downloadVerify: row.download_verify === 1,
    sensitiveVerify: row.sensitive_verify !== 0,
    totpBound: row.totp_bound_at !== null,
    protectedLoginAckAt: row.protected_login_ack_at ?? null,
  };
}

/** Every way the user can prove who they are: email always, SMS with a phone, Google once bound. */
export function availableWays(user: UserSecurity): VerifyWay[] {
  const ways: VerifyWay[] = [];
  if (user.phone) ways.push('sms');
  ways.push('email');
  if (user.totpBound) ways.push('google');
  return ways;
}

/**
 * The second login step accepts only the way the user chose, so protection by the authenticator
 * cannot be sidestepped through a mailbox. Should that way have gone (phone removed), email stands in.
 */
export function loginWays(user: UserSecurity): VerifyWay[] {
  return availableWays(user).includes(user.loginVerifyWay) ? [user.loginVerifyWay] : ['email'];
}

/** Where a code for this way goes (null for the authenticator, which needs no sending). */
export function targetOf(user: UserSecurity, way: VerifyWay): string | null {
  if (way === 'sms') return user.phone;
  if (way === 'email') return user.email;
  return null;
}

/** The ways with their masked targets, as the verification screens list them. */
export function describeWays(user: UserSecurity, ways: readonly VerifyWay[]): VerifyWayOption[] {
  return ways.map((way) => {
    const target = targetOf(user, way);
    const masked = target === null ? null : way === 'sms' ? maskPhone(target) : maskEmail(target);
    return { way, target: masked };
  });
}
