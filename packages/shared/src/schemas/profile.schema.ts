import { z } from 'zod';
import { emailSchema, phoneSchema, userNameSchema } from './account.schema.ts';
import { verifyCodeSchema } from './security-settings.schema.ts';

/** Changes to the user's own details (`/userInfo/edited/*`, `/userInfo/sendSmsCode/new`). */
export const changeUserNameSchema = z.object({ userName: userNameSchema });

export const changeEmailSchema = z.object({ email: emailSchema });

export const newPhoneSchema = z.object({ phone: phoneSchema });

export const changePhoneSchema = z.object({ phone: phoneSchema, code: verifyCodeSchema });

/** An empty address means "send notices to the login email". */
export const receiveEmailSchema = z.object({
  email: z.union([z.literal(''), emailSchema]).transform((v) => (v === '' ? null : v)),
});
