import { z } from 'zod';
import { parseIpEntry } from '../ip-ranges.ts';
import type { ValidationKey } from '../validation.ts';

/**
 * Gateway users (product-spec §3, §5; console `/s_sendSetting/empower`, calls
 * `/sms/gatewayUsers`): the logins a customer's own system uses to connect to Herald over CMPP
 * (a CMPP_USER: exactly 6 letters or digits, the Source_Addr of CONNECT) or SMPP (a system_id of
 * 1-15 visible characters). Each has a shared secret Herald makes, shown once at creation and at a
 * reset; the addresses it may connect from (none listed: any); how many submits may await their
 * answer at once (the window) and how many it may start per second. An account has at most 5
 * unless the operator sets another cap for it.
 */
const rule = (key: ValidationKey) => ({ message: key });

export const SMS_GATEWAY_PROTOCOLS = ['cmpp', 'smpp'] as const;
export type SmsGatewayProtocol = (typeof SMS_GATEWAY_PROTOCOLS)[number];

/** Gateway users per account unless the operator sets another cap. */
export const SMS_GATEWAY_USER_DEFAULT_MAX = 5;
export const SMS_GATEWAY_USER_CAP_MAX = 100;
export const CMPP_USER_PATTERN = /^[A-Za-z0-9]{6}$/;
/** SMPP 3.4: system_id is a C-string of at most 16 bytes with its NUL; visible ASCII here. */
export const SMPP_SYSTEM_ID_PATTERN = /^[\x21-\x7e]{1,15}$/;
export const SMS_GATEWAY_IPS_MAX = 20;
export const SMS_GATEWAY_WINDOW = { min: 1, max: 256, default: 16 } as const;
export const SMS_GATEWAY_PER_SECOND = { min: 1, max: 10_000, default: 100 } as const;

export const smsGatewayUserIdSchema = z.coerce
  .number(rule('invalid'))
  .int(rule('invalid'))
  .positive(rule('invalid'));

/** The allowed addresses as typed (one IP, range or CIDR a line) or as a list; duplicates collapse. */
const allowedIpsSchema = z
  .union([z.string(), z.array(z.string())], rule('invalid'))
  .default([])
  .transform((value, context) => {
    const lines = (Array.isArray(value) ? value : [value]).flatMap((text) => text.split(/[\r\n,]+/));
    const entries: string[] = [];
    for (const raw of lines) {
      const line = raw
        .trim()
        .replace(/\s*-\s*/, '-')
        .replace(/\s*\/\s*/, '/')
        .toLowerCase();
      if (!line) continue;
      if (line.length > 100 || !parseIpEntry(line)) {
        context.addIssue({ code: 'custom', ...rule('smsGatewayIpFormat') });
        return z.NEVER;
      }
      if (!entries.includes(line)) entries.push(line);
    }
    if (entries.length > SMS_GATEWAY_IPS_MAX) {
      context.addIssue({ code: 'custom', ...rule('smsGatewayIpTooMany') });
      return z.NEVER;
    }
    return entries;
  });

const windowSchema = z.coerce
  .number(rule('smsGatewayWindow'))
  .int(rule('smsGatewayWindow'))
  .min(SMS_GATEWAY_WINDOW.min, rule('smsGatewayWindow'))
  .max(SMS_GATEWAY_WINDOW.max, rule('smsGatewayWindow'));

const perSecondSchema = z.coerce
  .number(rule('smsGatewayPerSecond'))
  .int(rule('smsGatewayPerSecond'))
  .min(SMS_GATEWAY_PER_SECOND.min, rule('smsGatewayPerSecond'))
  .max(SMS_GATEWAY_PER_SECOND.max, rule('smsGatewayPerSecond'));

export const smsGatewaySettingsSchema = z.object({
  allowedIps: allowedIpsSchema,
  window: windowSchema.default(SMS_GATEWAY_WINDOW.default),
  perSecond: perSecondSchema.default(SMS_GATEWAY_PER_SECOND.default),
});
export type SmsGatewaySettingsInput = z.infer<typeof smsGatewaySettingsSchema>;

/** The login name's rule for a protocol: the key of its message when it breaks it, else null. */
export function smsGatewayNameProblem(protocol: SmsGatewayProtocol, name: string): ValidationKey | null {
  if (protocol === 'cmpp') return CMPP_USER_PATTERN.test(name) ? null : 'smsGatewayCmppName';
  return SMPP_SYSTEM_ID_PATTERN.test(name) ? null : 'smsGatewaySmppName';
}

export const smsGatewayUserCreateSchema = smsGatewaySettingsSchema
  .extend({
    protocol: z.enum(SMS_GATEWAY_PROTOCOLS, rule('invalid')),
    name: z.string(rule('required')).trim().min(1, rule('required')),
  })
  .superRefine((value, context) => {
    const problem = smsGatewayNameProblem(value.protocol, value.name);
    if (problem) context.addIssue({ code: 'custom', path: ['name'], ...rule(problem) });
  });
export type SmsGatewayUserCreateInput = z.infer<typeof smsGatewayUserCreateSchema>;

/** The operator's cap of gateway users for one account. */
export const smsGatewayCapSchema = z.object({
  max: z.coerce
    .number(rule('invalid'))
    .int(rule('invalid'))
    .min(0, rule('invalid'))
    .max(SMS_GATEWAY_USER_CAP_MAX, rule('invalid')),
});

/** A gateway user as the console shows it: never its secret, only the secret's last characters. */
export interface SmsGatewayUserView {
  id: number;
  protocol: SmsGatewayProtocol;
  name: string;
  secretHint: string;
  allowedIps: string[];
  window: number;
  perSecond: number;
  createdAt: number;
  updatedAt: number;
}

export interface SmsGatewayUsersList {
  list: SmsGatewayUserView[];
  /** This account's cap. */
  max: number;
}

/** A creation's or reset's answer: the secret, this once. */
export interface IssuedGatewaySecret {
  user: SmsGatewayUserView;
  secret: string;
}
