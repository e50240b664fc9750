import { z } from 'zod';
import type { PermissionLevel } from '../member-presets.ts';
import type { PermissionCode } from '../permissions.ts';
import type { ValidationKey } from '../validation.ts';
import type { VerifyWay } from './security-settings.schema.ts';

/** Account rules of product-spec §5, used by the server's routes and the console's forms. */
const rule = (key: ValidationKey) => ({ message: key });

export const USER_NAME_PATTERN = /^[A-Za-z0-9_]{4,20}$/;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 16;
export const EMAIL_MAX = 254;

/** Digits, upper-case, lower-case, and anything else that is not a space. */
export function passwordClasses(password: string): number {
  return [/\d/, /[A-Z]/, /[a-z]/, /[^A-Za-z0-9\s]/].filter((re) => re.test(password)).length;
}

export function isStrongPassword(password: string): boolean {
  return (
    password.length >= PASSWORD_MIN &&
    password.length <= PASSWORD_MAX &&
    !/\s/.test(password) &&
    passwordClasses(password) >= 3
  );
}

/** Mainland mobile numbers (11 digits starting 1[3-9]) or E.164-style international numbers. */
export const PHONE_PATTERN = /^(?:1[3-9]\d{9}|\+\d{6,15})$/;

export const userNameSchema = z
  .string(rule('required'))
  .trim()
  .regex(USER_NAME_PATTERN, rule('userNameFormat'));

export const passwordSchema = z.string(rule('required')).refine(isStrongPassword, rule('passwordFormat'));

export const emailSchema = z
  .string(rule('required'))
  .trim()
  .max(EMAIL_MAX, rule('lengthExceeded'))
  .pipe(z.email(rule('emailFormat')));

export const phoneSchema = z.string(rule('required')).trim().regex(PHONE_PATTERN, rule('phoneFormat'));

/** A form checkbox arrives as true, 'true', 'on' or '1'. */
const accepted = z
  .union([z.boolean(), z.string()], rule('agreementRequired'))
  .transform((v) => v === true || v === 'true' || v === 'on' || v === '1')
  .refine((v) => v, rule('agreementRequired'));

/** The human checks a public form carries: a slider pass token and, where asked, an image code. */
export const challengeFields = {
  sliderToken: z.string().max(128, rule('lengthExceeded')).optional(),
  captchaId: z.string().max(64, rule('lengthExceeded')).optional(),
  captchaCode: z.string().trim().max(16, rule('lengthExceeded')).optional(),
};

export const registerSchema = z
  .object({
    userName: userNameSchema,
    password: passwordSchema,
    confirmPassword: z.string(rule('required')),
    email: emailSchema,
    phone: phoneSchema,
    agreement: accepted,
    /** The code texted to `phone`; the server requires it when sign-up verifies phones (a carrier is set). */
    smsCode: z
      .string()
      .trim()
      .regex(/^(\d{6})?$/, rule('verifyCodeFormat'))
      .optional(),
    ...challengeFields,
  })
  .refine((v) => v.password === v.confirmPassword, {
    ...rule('passwordMismatch'),
    path: ['confirmPassword'],
  });

export type RegisterInput = z.infer<typeof registerSchema>;

/** `POST /access/register/sendSmsCode`: the phone being signed up with. */
export const registerSmsCodeSchema = z.object({ phone: phoneSchema });

/**
 * `GET /access/register/verification/way`: whether sign-up proves the phone by an SMS code;
 * `/verification/method`: the human checks the sign-up form carries.
 */
export interface RegisterVerificationWay {
  smsCode: boolean;
  resendAfterSeconds: number;
}
export interface RegisterVerificationMethod {
  slider: boolean;
  imageCode: boolean;
}

export const changePasswordSchema = z
  .object({
    oldPassword: z.string(rule('required')).min(1, rule('required')),
    newPassword: passwordSchema,
    confirmPassword: z.string(rule('required')),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    ...rule('passwordMismatch'),
    path: ['confirmPassword'],
  })
  .refine((v) => v.newPassword !== v.oldPassword, { ...rule('passwordSameAsOld'), path: ['newPassword'] });

export const loginSchema = z.object({
  username: z.string(rule('required')).trim().min(1, rule('required')).max(EMAIL_MAX, rule('lengthExceeded')),
  password: z.string(rule('required')).min(1, rule('required')).max(128, rule('lengthExceeded')),
  ...challengeFields,
});

export const forgotPasswordSchema = z.object({ email: emailSchema, ...challengeFields });

export const resetPasswordSchema = z
  .object({
    token: z.string(rule('required')).min(1, rule('required')).max(256, rule('lengthExceeded')),
    password: passwordSchema,
    confirmPassword: z.string(rule('required')),
  })
  .refine((v) => v.password === v.confirmPassword, {
    ...rule('passwordMismatch'),
    path: ['confirmPassword'],
  });

/** Resending the activation mail: by user name or email. */
export const resendActivationSchema = z.object({
  userName: z.string(rule('required')).trim().min(1, rule('required')).max(EMAIL_MAX, rule('lengthExceeded')),
  ...challengeFields,
});

export interface UserInfo {
  userId: number;
  accountId: number;
  userName: string;
  email: string;
  phone: string | null;
  accountType: 'main' | 'member';
  isHuaweiYunUser: 0 | 1;
  /** A user of the platform's own account: the console shows them the /admin area. */
  platformOperator: boolean;
}

/**
 * What a login answers (`/oauth/token`, `/access/wechat/beforeLoginBind`): a session token, or
 * the second step it waits for (the ways this user can verify with, and the pending login's token).
 */
export type LoginAnswer =
  | SessionToken
  | { verifyRequired: true; ways: VerifyWay[]; verifyToken: string; expiresIn: number };

/** What a call that logs the user in answers beside the session cookies. */
export interface SessionToken {
  token: string;
  tokenType: 'Bearer';
  expiresIn: number;
}

/** The second login step's success: the session, and whether it is the first protected login. */
export interface LoginVerifyAnswer extends SessionToken {
  firstProtectedLogin: boolean;
}

/** The account's balance in the header (`/userInfo/userBalance`). */
export interface UserBalance {
  /** Integer fen. */
  balance: number;
  currency: 'CNY';
}

/** One entry of the user's flattened menu list: its id is the permission code it opens. */
export interface MenuPermission {
  id: number;
  code: PermissionCode;
  /** `read`: the user may look but not change (§7 "Members"). */
  level: PermissionLevel;
}
