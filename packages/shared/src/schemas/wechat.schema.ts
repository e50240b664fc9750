import { z } from 'zod';
import type { ValidationKey } from '../validation.ts';
import { loginSchema } from './account.schema.ts';

/**
 * WeChat quick login and binding (console-spec §2 /wxLoginCheck, /wxbind; §7 WeChat): the state
 * the console polls with, and the password login that binds a scanned, unbound WeChat identity.
 */
const rule = (key: ValidationKey) => ({ message: key });

/** Outcomes of a WeChat authorisation, as `GET /v3/access/wechat/checkStat` reports them. */
export const WECHAT_STATUSES = [
  'waiting',
  'loggedIn',
  'needBind',
  'verifyRequired',
  'bound',
  'expired',
] as const;
export type WechatStatus = (typeof WECHAT_STATUSES)[number];

export const wechatStateField = z
  .string(rule('required'))
  .trim()
  .min(1, rule('required'))
  .max(128, rule('lengthExceeded'));

export const wechatStateQuerySchema = z.object({ state: wechatStateField });

/** The provider's redirect back: a code, or none when the user declined. */
export const wechatCallbackQuerySchema = z.object({
  state: z.string().trim().max(128).optional(),
  code: z.string().trim().max(512).optional(),
});

/** The password login of /wxbind, with the image code it always asks for (and the slider's pass). */
export const wechatBeforeLoginBindSchema = loginSchema.extend({ state: wechatStateField });

export type WechatBeforeLoginBindInput = z.infer<typeof wechatBeforeLoginBindSchema>;

export type WechatCheck =
  | { status: Exclude<WechatStatus, 'loggedIn' | 'verifyRequired'> }
  | { status: 'loggedIn'; token: string }
  | { status: 'verifyRequired'; verifyToken: string; ways: string[]; expiresIn: number };

/** A WeChat QR login or binding begun: the state the console polls with, and the QR page. */
export interface WechatStart {
  state: string;
  authorizeUrl: string;
  expiresIn: number;
}
