import { z } from 'zod';
import type { ValidationKey } from '../validation.ts';
import { emailSchema, phoneSchema, userNameSchema } from './account.schema.ts';
import { verifyCodeSchema } from './security-settings.schema.ts';

const rule = (key: ValidationKey) => ({ message: key });

/** Changes to the user's own details (`/userInfo/edited/*`, `/userInfo/sendSmsCode/new`). */
export const changeUserNameSchema = z.object({ userName: userNameSchema });

export const changeEmailSchema = z.object({ email: emailSchema });

export const newPhoneSchema = z.object({ phone: phoneSchema });

export const changePhoneSchema = z.object({ phone: phoneSchema, code: verifyCodeSchema });

/** An empty address means "send notices to the login email". */
export const receiveEmailSchema = z.object({
  email: z.union([z.literal(''), emailSchema]).transform((v) => (v === '' ? null : v)),
});

/** The notice and report mail address of the account (`edited/exmail`); empty: the owner's login email. */
export const exmailSchema = receiveEmailSchema;

/** Who holds the account (`edited/accountType`): a person or a company. */
export const ACCOUNT_HOLDER_TYPES = ['personal', 'enterprise'] as const;
export type AccountHolderType = (typeof ACCOUNT_HOLDER_TYPES)[number];
export const accountHolderTypeSchema = z.object({
  accountType: z.enum(ACCOUNT_HOLDER_TYPES, rule('accountTypeFormat')),
});

const text = (max: number) =>
  z.string(rule('required')).trim().min(1, rule('required')).max(max, rule('lengthExceeded'));

/** A company website: http(s) only (product-spec §5 "URLs must begin with http(s)"); may be empty. */
export const websiteSchema = z
  .string()
  .trim()
  .max(200, rule('lengthExceeded'))
  .refine((v) => v === '' || /^https?:\/\/[^\s/$.?#][^\s]*$/i.test(v), rule('urlFormat'));

export const enterpriseInfoSchema = z.object({
  companyName: text(100),
  website: websiteSchema.default(''),
  industry: text(50),
  contactName: text(30),
  contactPhone: phoneSchema,
});
export type EnterpriseInfo = z.infer<typeof enterpriseInfoSchema>;

/** product-spec §5: a personal certification name is two or more Chinese characters (· allowed inside). */
export const REAL_NAME_PATTERN = /^\p{Script=Han}[\p{Script=Han}·]*\p{Script=Han}$/u;

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';

function isRealDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A mainland resident ID number: 18 characters with the GB 11643 check digit, or the old 15 digits. */
export function isValidIdNumber(value: string): boolean {
  const id = value.toUpperCase();
  if (/^\d{15}$/.test(id)) {
    return isRealDate(1900 + Number(id.slice(6, 8)), Number(id.slice(8, 10)), Number(id.slice(10, 12)));
  }
  if (!/^\d{17}[\dX]$/.test(id)) return false;
  if (!isRealDate(Number(id.slice(6, 10)), Number(id.slice(10, 12)), Number(id.slice(12, 14)))) return false;
  const sum = ID_WEIGHTS.reduce((total, weight, i) => total + weight * Number(id[i]), 0);
  return ID_CHECK[sum % 11] === id[17];
}

export const personalInfoSchema = z.object({
  realName: z
    .string(rule('required'))
    .trim()
    .min(1, rule('required'))
    .max(30, rule('lengthExceeded'))
    .regex(REAL_NAME_PATTERN, rule('realNameFormat')),
  idNumber: z
    .string(rule('required'))
    .trim()
    .min(1, rule('required'))
    .transform((v) => v.toUpperCase())
    .refine(isValidIdNumber, rule('idNumberFormat')),
});
export type PersonalInfo = z.infer<typeof personalInfoSchema>;

/** An SMS code sent to the user's own phone (`/userInfo/smsCode/validate`, `/verify/smsCodeCheck`). */
export const smsCodeValidateSchema = z.object({ code: verifyCodeSchema });

export interface AccountDetails {
  accountType: AccountHolderType | null;
  enterprise: (EnterpriseInfo & { website: string }) | null;
  personal: { realName: string; idNumber: string } | null;
  /** The notice and report address set; null: mails go to the owner's login email. */
  exmail: string | null;
  /** Where notice and report mails go now. */
  exmailEffective: string | null;
  updatedAt: number | null;
  /** Whether the caller may change them (the owner). */
  editable: boolean;
}
