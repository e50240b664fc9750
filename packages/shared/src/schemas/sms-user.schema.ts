import { z } from 'zod';
import type { ValidationKey } from '../validation.ts';
import { API_KEY_GRACE_MINUTES, type ApiKeyView } from './api-user.schema.ts';

/**
 * SMS_USERs (product-spec §3, §5, §9; console `/s_sendSetting/empower`, calls `/sms/smsUsers`):
 * the credentials SMS is sent with, as API_USERs are for mail. A name of 4-20 letters, digits or
 * underscores, at most 5 per account, never edited or deleted; its SMS_KEY shown once, stored
 * hashed, and reset with the API_KEY's overlap rule (the old key works 15-60 minutes more). A test
 * SMS_USER sends only the few test SMS an account has.
 */
const rule = (key: ValidationKey) => ({ message: key });

export const SMS_USER_MAX = 5;
export const SMS_USER_NAME_PATTERN = /^[A-Za-z0-9_]{4,20}$/;
export const SMS_USER_TYPES = ['normal', 'test'] as const;
export type SmsUserType = (typeof SMS_USER_TYPES)[number];

export const smsUserNameSchema = z
  .string(rule('required'))
  .trim()
  .regex(SMS_USER_NAME_PATTERN, rule('smsUserNameFormat'));

export const smsUserIdSchema = z.coerce
  .number(rule('invalid'))
  .int(rule('invalid'))
  .positive(rule('invalid'));

export const smsUserCreateSchema = z.object({
  name: smsUserNameSchema,
  cType: z.enum(SMS_USER_TYPES, rule('invalid')).default('normal'),
});
export type SmsUserCreateInput = z.infer<typeof smsUserCreateSchema>;

export const smsKeyResetSchema = z.object({
  smsUserId: smsUserIdSchema,
  expiresInMinutes: z.coerce
    .number(rule('smsKeyExpiry'))
    .refine((v) => (API_KEY_GRACE_MINUTES as readonly number[]).includes(v), rule('smsKeyExpiry')),
});
export type SmsKeyResetInput = z.infer<typeof smsKeyResetSchema>;

/** An SMS_USER as the console shows it: never its key, only the keys' last characters. */
export interface SmsUserView {
  id: number;
  name: string;
  cType: SmsUserType;
  createdAt: number;
  keys: ApiKeyView[];
}

/** A creation's answer: the SMS_KEY, this once. */
export interface IssuedSmsKey {
  smsUser: SmsUserView;
  smsKey: string;
}

/** A reset's answer: the new SMS_KEY, this once, and until when the old one still works. */
export interface ReissuedSmsKey extends IssuedSmsKey {
  oldKeyExpiresAt: number;
}
