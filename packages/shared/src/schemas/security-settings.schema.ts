import { z } from 'zod';
import { IP_WHITELIST_MAX, overlapsInternal, parseIpEntry } from '../ip-ranges.ts';
import type { ValidationKey } from '../validation.ts';

/**
 * Bodies of the security settings (console-spec §7 "Security", Google authenticator, login
 * verification): used by the server's routes and the console's forms.
 */
const rule = (key: ValidationKey) => ({ message: key });

/** Login verification: never, on every login, or only from an address the user never logged in from. */
export const LOGIN_VERIFY_MODES = ['off', 'always', 'newIp'] as const;
export type LoginVerifyMode = (typeof LOGIN_VERIFY_MODES)[number];

/** Ways to prove who you are: a code by SMS or email, or the Google authenticator's code. */
export const VERIFY_WAYS = ['sms', 'email', 'google'] as const;
export type VerifyWay = (typeof VERIFY_WAYS)[number];

export const verifyWaySchema = z.enum(VERIFY_WAYS, rule('invalid'));

/** Six digits, whether mailed, texted or read off an authenticator app. */
export const verifyCodeSchema = z
  .string(rule('required'))
  .trim()
  .min(1, rule('required'))
  .regex(/^\d{6}$/, rule('verifyCodeFormat'));

/** A form switch arrives as true/false, 'true'/'false', 'on'/'off' or '1'/'0'. */
export const switchSchema = z
  .union([z.boolean(), z.number(), z.string()], rule('required'))
  .transform((v, context) => {
    const text = String(v).trim().toLowerCase();
    if (['true', 'on', '1'].includes(text)) return true;
    if (['false', 'off', '0'].includes(text)) return false;
    context.addIssue({ code: 'custom', ...rule('invalid') });
    return z.NEVER;
  });

export const loginVerifyConfigSchema = z.object({
  mode: z.enum(LOGIN_VERIFY_MODES, rule('invalid')),
  /** Kept as it was when omitted. */
  way: verifyWaySchema.optional(),
});

export const verifySwitchSchema = z.object({ enabled: switchSchema });

/** A sensitive-operation or download verification: the way chosen and its code. */
export const verifyIdentitySchema = z.object({ way: verifyWaySchema, code: verifyCodeSchema });

export const totpCodeSchema = z.object({ code: verifyCodeSchema });

/** The pending-login token of the second login step; also read from a header or cookie. */
export const verifyTokenField = z.string().trim().max(128, rule('lengthExceeded')).optional();

export const loginVerifyTokenSchema = z.object({ verifyToken: verifyTokenField });

export const loginVerifySchema = z.object({
  verifyToken: verifyTokenField,
  way: verifyWaySchema,
  code: verifyCodeSchema,
});

/**
 * The whitelist as typed in a text area (one entry per line) or as a list. Problems are
 * reported per line as `ips.<line number>` (1-based, counting blank lines) so a form can mark
 * the line; duplicates collapse; the maximum counts what remains.
 */
export const ipWhitelistSchema = z
  .object({ ips: z.union([z.string(), z.array(z.string())], rule('required')) })
  .transform(({ ips }, context) => {
    const lines = (Array.isArray(ips) ? ips : [ips]).flatMap((text) => text.split(/\r?\n/));
    const entries: string[] = [];
    lines.forEach((raw, index) => {
      const line = raw
        .trim()
        .replace(/\s*-\s*/, '-')
        .replace(/\s*\/\s*/, '/');
      if (!line) return;
      const path = ['ips', index + 1];
      const range = line.length > 100 ? null : parseIpEntry(line);
      if (!range) context.addIssue({ code: 'custom', path, ...rule('ipWhitelistFormat') });
      else if (overlapsInternal(range))
        context.addIssue({ code: 'custom', path, ...rule('ipWhitelistInternal') });
      else if (!entries.includes(line.toLowerCase())) entries.push(line.toLowerCase());
    });
    if (entries.length > IP_WHITELIST_MAX) {
      context.addIssue({ code: 'custom', path: ['ips'], ...rule('ipWhitelistTooMany') });
    }
    return { ips: entries };
  });

/** What the security screen shows (console-spec §2 /accountSetting/security). */
export interface SecuritySetting {
  loginVerify: LoginVerifyMode;
  loginVerifyWay: VerifyWay;
  downloadVerify: boolean;
  sensitiveVerify: boolean;
  googleAuthBound: boolean;
  ipWhitelistSwitch: boolean;
  ipWhitelistCount: number;
  /** Masked: the first 3 characters of the phone (product-spec §9), two of the email's local part. */
  phone: string | null;
  email: string;
  /** The ways this user can verify with. */
  ways: VerifyWay[];
  isOwner: boolean;
  /** Until when this session counts as verified (ms since the epoch), or null. */
  sensitiveVerifiedUntil: number | null;
  downloadVerifiedUntil: number | null;
}

export interface IpWhitelist {
  enabled: boolean;
  ips: string[];
  max: number;
  updatedAt: number | null;
}

/** A way to verify with and where its code goes, masked (null for the authenticator). */
export interface VerifyWayOption {
  way: VerifyWay;
  target: string | null;
}

/** `/verify/way/sys`: the user's ways and what this session holds already. */
export interface VerifyWaysView {
  ways: VerifyWayOption[];
  sensitiveVerifiedUntil: number | null;
  downloadVerifiedUntil: number | null;
}

/** A code sent: how long it lasts, and when another may go. */
export interface CodeSent {
  expiresInSeconds: number;
  resendAfterSeconds: number;
}

/** A verification code on its way to one of the user's own ways (the target masked). */
export interface VerifyCodeSent extends VerifyWayOption, CodeSent {}

/** The second login step (`/user/loginVerify`): the ways it accepts and the seconds it has left. */
export interface LoginVerifyInfo {
  ways: VerifyWayOption[];
  expiresIn: number;
}

/** A pending authenticator binding: the QR code, the secret to type by hand, its lifetime in seconds. */
export interface GoogleQrCodeView {
  qrCode: string;
  secret: string;
  otpauthUrl: string;
  expiresIn: number;
}

/**
 * How a login attempt ended. verify_required: the password was right and a second step was
 * asked; verify_failed: a wrong second-step code; ip_refused: outside the IP whitelist.
 */
export const LOGIN_RESULTS = [
  'success',
  'bad_credentials',
  'locked',
  'inactive',
  'suspended',
  'verify_required',
  'verify_failed',
  'ip_refused',
] as const;
export type LoginResult = (typeof LOGIN_RESULTS)[number];

/** One line of the user's login log. */
export interface LoginLogView {
  time: number;
  ip: string | null;
  userAgent: string | null;
  result: LoginResult;
}
