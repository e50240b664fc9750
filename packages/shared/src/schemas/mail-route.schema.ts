import { z } from 'zod';
import type { ValidationKey } from '../validation.ts';
import { webhookUrlSchema } from './webhook.schema.ts';

/**
 * Receive routes (`/config/routes`; product-spec §3 "Receive route: address prefix or pattern,
 * target URL or mailbox"): mail arriving at Herald's inbound MX for one of the account's domains
 * (its MX pointing at Herald) is matched by the recipient's local part and posted to a URL (the
 * `route` push) or forwarded to a mailbox the account proved with a code. `expression` is a
 * prefix (`support` matches support@ and support-cn@), `*` for every address, or with `match`
 * `pattern` a glob (`order-*-cn`).
 */
const rule = (key: ValidationKey) => ({ message: key });

export const MAIL_ROUTE_MAX = 20;
export const MAIL_ROUTE_MATCHES = ['prefix', 'pattern'] as const;
export const MAIL_ROUTE_TARGETS = ['url', 'email'] as const;

const expression = z
  .string(rule('routeExpression'))
  .trim()
  .toLowerCase()
  .regex(/^(\*|[a-z0-9._+*-]{1,64})$/, rule('routeExpression'));

export const mailRouteInputSchema = z
  .object({
    domain: z
      .string(rule('required'))
      .trim()
      .toLowerCase()
      .min(1, rule('required'))
      .max(253, rule('lengthExceeded')),
    match: z.enum(MAIL_ROUTE_MATCHES, rule('invalid')).default('prefix'),
    expression,
    target: z.enum(MAIL_ROUTE_TARGETS, rule('invalid')),
    url: z.preprocess((v) => (v === '' ? undefined : v), webhookUrlSchema.optional()),
    email: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.string().trim().toLowerCase().email(rule('emailFormat')).max(254, rule('lengthExceeded')).optional(),
    ),
    verifyCode: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z
        .string()
        .trim()
        .regex(/^\d{6}$/, rule('routeVerifyCode'))
        .optional(),
    ),
  })
  .superRefine((v, ctx) => {
    if (v.target === 'url' && !v.url)
      ctx.addIssue({ code: 'custom', message: 'webhookUrlRequired', path: ['url'] });
    if (v.target === 'email' && !v.email)
      ctx.addIssue({ code: 'custom', message: 'required', path: ['email'] });
    if (v.target === 'email' && !v.verifyCode)
      ctx.addIssue({ code: 'custom', message: 'routeVerifyCode', path: ['verifyCode'] });
  });
export type MailRouteInput = z.input<typeof mailRouteInputSchema>;

export const mailRouteCodeSchema = z.object({
  email: z
    .string(rule('required'))
    .trim()
    .toLowerCase()
    .email(rule('emailFormat'))
    .max(254, rule('lengthExceeded')),
});

export interface MailRouteView {
  id: number;
  domain: string;
  match: (typeof MAIL_ROUTE_MATCHES)[number];
  expression: string;
  target: (typeof MAIL_ROUTE_TARGETS)[number];
  url: string | null;
  email: string | null;
  createdAt: number;
}
