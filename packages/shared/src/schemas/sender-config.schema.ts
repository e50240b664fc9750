import { z } from 'zod';
import { parseIp } from '../ip-ranges.ts';
import type { ValidationKey } from '../validation.ts';
import { isDomainName } from './domain.schema.ts';

/**
 * Sender configurations (product-spec §3 "Sender configs: receiving domain, from prefix,
 * mail_from, do-not-disturb cycle (every day, week or month with day numbers) with start and end
 * time, AD mark position (before or after subject), TLS receiver domains"; §5 "Do-not-disturb: end
 * not before start; day numbers required for weekly and monthly"). The console's forms and the
 * `/sendConfig/*` routes parse with these schemas, so a rule is written once.
 */
const rule = (key: ValidationKey) => ({ message: key });

/** The kinds of `/sendConfig/{kind}`; `status` is the on/off state of each. */
export const SENDER_CONFIG_KINDS = [
  'from',
  'mailfrom',
  'ad',
  'tls',
  'nodisturb',
  'intercept',
  'bounce',
  'relay',
] as const;
export type SenderConfigKind = (typeof SENDER_CONFIG_KINDS)[number];
/** Kinds holding a list of entries (several receiving domains, windows, TLS domains). */
export const SENDER_CONFIG_LIST_KINDS = [
  'from',
  'tls',
  'nodisturb',
] as const satisfies readonly SenderConfigKind[];
/** Kinds whose entries can be deleted by id: the list kinds, and the smart-host relay. */
export const SENDER_CONFIG_REMOVABLE_KINDS = [
  ...SENDER_CONFIG_LIST_KINDS,
  'relay',
] as const satisfies readonly SenderConfigKind[];
/** Entries per list kind. */
export const SENDER_CONFIG_MAX_ENTRIES = 100;

/** `*` in a fixed-from entry: every receiving domain without an entry of its own. */
export const ALL_RECEIVING_DOMAINS = '*';
export const AD_POSITIONS = ['before', 'after'] as const;
export type AdPosition = (typeof AD_POSITIONS)[number];
export const AD_TEXT_MAX = 20;
export const NO_DISTURB_CYCLES = ['day', 'week', 'month'] as const;
export type NoDisturbCycle = (typeof NO_DISTURB_CYCLES)[number];

const domainOf = (key: ValidationKey) =>
  z
    .string(rule(key))
    .trim()
    .toLowerCase()
    .refine((value) => isDomainName(value), rule(key));

/** Accepts true/false, 1/0 and their strings: form posts carry strings. */
export const senderSwitchSchema = z.preprocess(
  (value) =>
    value === 'true' || value === '1' || value === 1
      ? true
      : value === 'false' || value === '0' || value === 0
        ? false
        : value,
  z.boolean(rule('invalid')),
);

export const senderFromInputSchema = z.object({
  receiveDomain: z
    .string(rule('senderReceiveDomainFormat'))
    .trim()
    .toLowerCase()
    .refine((v) => v === ALL_RECEIVING_DOMAINS || isDomainName(v), rule('senderReceiveDomainFormat')),
  fromPrefix: z
    .string(rule('senderFromPrefixFormat'))
    .trim()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, rule('senderFromPrefixFormat'))
    .refine(
      (v) => !v.startsWith('.') && !v.endsWith('.') && !v.includes('..'),
      rule('senderFromPrefixFormat'),
    ),
});
export type SenderFromInput = z.infer<typeof senderFromInputSchema>;

export const senderMailFromInputSchema = z.object({ domain: domainOf('senderDomainFormat') });
export type SenderMailFromInput = z.infer<typeof senderMailFromInputSchema>;

export const senderAdInputSchema = z.object({
  position: z.enum(AD_POSITIONS, rule('senderAdPosition')),
  text: z
    .string(rule('senderAdTextRequired'))
    .trim()
    .min(1, rule('senderAdTextRequired'))
    .max(AD_TEXT_MAX, rule('senderAdTextLength')),
});
export type SenderAdInput = z.infer<typeof senderAdInputSchema>;

export const senderTlsInputSchema = z.object({ domain: domainOf('senderDomainFormat') });
export type SenderTlsInput = z.infer<typeof senderTlsInputSchema>;

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const timeSchema = z.string(rule('noDisturbTimeFormat')).trim().regex(TIME, rule('noDisturbTimeFormat'));

/** Minutes after midnight of an `HH:mm` time. */
export function minutesOf(time: string): number {
  const [h, m] = time.split(':');
  return Number(h) * 60 + Number(m);
}

/** Day numbers as an array or a comma-separated string ("1,3,5"). */
const daysSchema = z.preprocess(
  (value) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
          .map(Number)
      : value,
  z.array(z.number(rule('invalid')).int(rule('invalid')), rule('invalid')).default([]),
);

/**
 * A do-not-disturb window: every day, or on the given weekdays (1 = Monday … 7 = Sunday) or days
 * of the month (1–31), from `start` to `end` inclusive of the end minute, in the account's time
 * zone. A window does not cross midnight: the end is not before the start.
 */
export const noDisturbInputSchema = z
  .object({
    cycle: z.enum(NO_DISTURB_CYCLES, rule('noDisturbCycle')),
    days: daysSchema,
    start: timeSchema,
    end: timeSchema,
  })
  .superRefine((value, ctx) => {
    if (value.cycle !== 'day' && value.days.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['days'], message: 'noDisturbDaysRequired' });
    }
    const max = value.cycle === 'week' ? 7 : 31;
    if (value.cycle !== 'day' && value.days.some((d) => d < 1 || d > max)) {
      ctx.addIssue({
        code: 'custom',
        path: ['days'],
        message: value.cycle === 'week' ? 'noDisturbWeekDay' : 'noDisturbMonthDay',
      });
    }
    if (TIME.test(value.start) && TIME.test(value.end) && minutesOf(value.end) < minutesOf(value.start)) {
      ctx.addIssue({ code: 'custom', path: ['end'], message: 'noDisturbEndBeforeStart' });
    }
  })
  .transform((value) => ({
    ...value,
    days: value.cycle === 'day' ? [] : [...new Set(value.days)].sort((a, b) => a - b),
  }));
export type NoDisturbInput = z.infer<typeof noDisturbInputSchema>;

export const senderInterceptInputSchema = z.object({ enabled: senderSwitchSchema });

/**
 * Bounce settings: whether a copy of each bounce notice (hard bounce, soft bounce after the
 * retry lifetime) is forwarded to an address of the account, and which.
 */
export const senderBounceInputSchema = z
  .object({
    forward: senderSwitchSchema,
    address: z.string().trim().optional(),
  })
  .superRefine((value, ctx) => {
    if (!value.forward) return;
    if (!value.address)
      ctx.addIssue({ code: 'custom', path: ['address'], message: 'senderBounceAddressRequired' });
    else if (!z.email().safeParse(value.address).success) {
      ctx.addIssue({ code: 'custom', path: ['address'], message: 'senderBounceAddressFormat' });
    }
  })
  .transform((value) => ({
    forward: value.forward,
    address: value.forward ? (value.address ?? null) : null,
  }));
export type SenderBounceInput = z.infer<typeof senderBounceInputSchema>;

export const RELAY_SECURITY = ['starttls', 'tls'] as const;
export type RelaySecurity = (typeof RELAY_SECURITY)[number];
export const RELAY_CREDENTIAL_MAX = 255;
export const RELAY_DEFAULT_PORT = 587;

/**
 * The account's smart host (issue 6 "a smart-host relay (host, port, TLS, auth) set for the
 * deployment or per account"): when set and switched on, all of the account's mail goes to this
 * host instead of the recipients' MX hosts. `starttls` upgrades on port 587 or 25 (and insists
 * when `requireTls`); `tls` speaks TLS from the start (port 465). An IPv6 host loses its
 * brackets. The password is write-only:
 * left empty on a change, the stored one is kept.
 */
export const senderRelayInputSchema = z
  .object({
    host: z
      .string(rule('senderRelayHost'))
      .trim()
      .toLowerCase()
      .transform((v) => v.replace(/^\[|\]$/g, ''))
      .refine((v) => isDomainName(v) || parseIp(v) !== null, rule('senderRelayHost')),
    port: z.preprocess(
      (value) => (value === undefined || value === '' || value === null ? RELAY_DEFAULT_PORT : value),
      z.coerce
        .number(rule('senderRelayPort'))
        .int(rule('senderRelayPort'))
        .min(1, rule('senderRelayPort'))
        .max(65_535, rule('senderRelayPort')),
    ),
    security: z.enum(RELAY_SECURITY, rule('senderRelaySecurity')).default('starttls'),
    requireTls: senderSwitchSchema.default(true),
    verifyCertificate: senderSwitchSchema.default(true),
    username: z
      .string(rule('senderRelayCredentialLength'))
      .trim()
      .max(RELAY_CREDENTIAL_MAX, rule('senderRelayCredentialLength'))
      .default(''),
    password: z
      .string(rule('senderRelayCredentialLength'))
      .max(RELAY_CREDENTIAL_MAX, rule('senderRelayCredentialLength'))
      .default(''),
  })
  .superRefine((value, ctx) => {
    if (value.password && !value.username) {
      ctx.addIssue({ code: 'custom', path: ['username'], message: 'senderRelayUsernameRequired' });
    }
  });
export type SenderRelayInput = z.infer<typeof senderRelayInputSchema>;

export const senderConfigKindSchema = z.enum(SENDER_CONFIG_KINDS, rule('senderConfigKind'));

export const senderStatusInputSchema = z.object({
  kind: senderConfigKindSchema,
  enabled: senderSwitchSchema,
});
export type SenderStatusInput = z.infer<typeof senderStatusInputSchema>;

/** The schema of an entry of each kind (intercept's entry is its switch). */
export const SENDER_CONFIG_INPUTS = {
  from: senderFromInputSchema,
  mailfrom: senderMailFromInputSchema,
  ad: senderAdInputSchema,
  tls: senderTlsInputSchema,
  nodisturb: noDisturbInputSchema,
  intercept: senderInterceptInputSchema,
  bounce: senderBounceInputSchema,
  relay: senderRelayInputSchema,
} as const;

export const senderConfigIdSchema = z.coerce
  .number(rule('invalid'))
  .int(rule('invalid'))
  .positive(rule('invalid'));

/** One entry as the console shows it: its id and the fields of its kind. */
export type SenderConfigEntry = { id: number; createdAt: number; updatedAt: number } & Record<
  string,
  unknown
>;

export interface SenderConfigView {
  kind: SenderConfigKind;
  enabled: boolean;
  entries: SenderConfigEntry[];
}
