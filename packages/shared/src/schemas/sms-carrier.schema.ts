import { z } from 'zod';
import type { ValidationKey } from '../validation.ts';

/**
 * The platform operator's SMS carrier connections and routes (/admin/smsCarriers and the CLI's
 * `sms:carrier`, `sms:route`). The URL's scheme names the protocol and its query carries what
 * differs between carriers of one protocol (window, version, serviceId, srcId, concatenation).
 * The password is write-only: it is sealed at rest and never answered; an edit that leaves it
 * empty keeps the one stored.
 */
const rule = (key: ValidationKey) => ({ message: key });

export const SMS_CARRIER_PROTOCOLS = ['smpp', 'cmpp', 'mm7', 'mm7s', 'sip'] as const;
export type SmsCarrierProtocol = (typeof SMS_CARRIER_PROTOCOLS)[number];
export const SMS_ROUTE_KINDS = ['*', 'sms', 'voice', 'mms'] as const;
export type SmsRouteKind = (typeof SMS_ROUTE_KINDS)[number];

/** Letters, digits, `_`, `.` and `-`: a name that reads the same in a URL and on a command line. */
export const SMS_CARRIER_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,32}$/;
/** ISO 3166 alpha-2, or `*` for every country. */
export const SMS_ROUTE_COUNTRY_PATTERN = /^([A-Z]{2}|\*)$/;
/** A national-number prefix: digits, or empty for every number of the country. */
export const SMS_ROUTE_PREFIX_PATTERN = /^\d{0,15}$/;
/** Submits per second when the operator names none; 0 leaves it to the URL's `perSecond`. */
export const SMS_CARRIER_PER_SECOND_DEFAULT = 100;
/** How often a worker reads the carriers and routes again: changes need no restart. */
export const SMS_CARRIER_REFRESH_MS = 5000;
/** Most connections to one carrier under one account (`connections=N`): carriers allow a few. */
export const SMS_CARRIER_MAX_CONNECTIONS = 16;

/** The URL's `connections`: 1 when absent, undefined when not a whole number from 1 to the most. */
export function smsCarrierConnections(url: URL): number | undefined {
  const raw = url.searchParams.get('connections');
  if (raw === null) return 1;
  const count = /^\d{1,3}$/.test(raw) ? Number(raw) : 0;
  return count >= 1 && count <= SMS_CARRIER_MAX_CONNECTIONS ? count : undefined;
}

/**
 * What is wrong with a carrier URL: `scheme` (not smpp://, cmpp://, mm7:// / mm7s:// for MMS or sip:// for voice), `url` (no host, or a user
 * name or password in it, which belong in their own fields), `connections` (not 1 to the most),
 * or null. Without a port the protocol's own applies (SMPP 2775, CMPP 7890, MM7 HTTP 80 or HTTPS 443, SIP 5060).
 */
export function smsCarrierUrlProblem(text: string): 'scheme' | 'url' | 'connections' | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'url';
  }
  if (!(SMS_CARRIER_PROTOCOLS as readonly string[]).includes(url.protocol.replace(/:$/, ''))) return 'scheme';
  if (!url.hostname || url.username || url.password) return 'url';
  if (smsCarrierConnections(url) === undefined) return 'connections';
  return null;
}

const perSecond = z.coerce
  .number(rule('invalid'))
  .int(rule('invalid'))
  .min(0, rule('invalid'))
  .max(100_000, rule('invalid'));

const carrierFields = {
  url: z
    .string(rule('required'))
    .trim()
    .min(1, rule('required'))
    .max(500, rule('lengthExceeded'))
    .refine((v) => [null, 'connections'].includes(smsCarrierUrlProblem(v)), rule('smsCarrierUrl'))
    .refine((v) => smsCarrierUrlProblem(v) !== 'connections', rule('smsCarrierConnections')),
  systemId: z.string(rule('required')).trim().min(1, rule('required')).max(64, rule('lengthExceeded')),
  /** Not trimmed: a shared secret may have spaces. */
  password: z.string().max(128, rule('lengthExceeded')).default(''),
  /** The sender id (SMPP source_addr, CMPP Src_Id); empty for none. */
  sourceAddr: z.string().trim().max(21, rule('lengthExceeded')).default(''),
  perSecond: perSecond.default(SMS_CARRIER_PER_SECOND_DEFAULT),
};

/** A new carrier: its name and a password are required. */
export const smsCarrierCreateSchema = z.object({
  name: z.string(rule('required')).trim().regex(SMS_CARRIER_NAME_PATTERN, rule('smsCarrierName')),
  ...carrierFields,
  password: z.string(rule('required')).min(1, rule('required')).max(128, rule('lengthExceeded')),
});
export type SmsCarrierCreateInput = z.input<typeof smsCarrierCreateSchema>;

/** An edit of a carrier (its name stays): an empty password keeps the stored one. */
export const smsCarrierUpdateSchema = z.object(carrierFields);
export type SmsCarrierUpdateInput = z.input<typeof smsCarrierUpdateSchema>;

export const smsRouteInputSchema = z.object({
  country: z
    .string(rule('required'))
    .trim()
    .toUpperCase()
    .regex(SMS_ROUTE_COUNTRY_PATTERN, rule('smsRouteCountry')),
  prefix: z.string().trim().regex(SMS_ROUTE_PREFIX_PATTERN, rule('smsRoutePrefix')).default(''),
  kind: z.enum(SMS_ROUTE_KINDS, rule('invalid')).default('*'),
  /** Lower goes first among equally specific routes; the next one is the failover. */
  priority: z.coerce
    .number(rule('invalid'))
    .int(rule('invalid'))
    .min(0, rule('invalid'))
    .max(1_000_000, rule('invalid'))
    .default(0),
});
export type SmsRouteInput = z.input<typeof smsRouteInputSchema>;

export const smsCarrierNameParamSchema = z.object({ name: z.string().min(1).max(200) });
export const smsRouteIdParamSchema = z.object({
  name: z.string().min(1).max(200),
  routeId: z.coerce.number().int().positive(),
});

export interface SmsRouteView {
  id: number;
  country: string;
  prefix: string;
  kind: string;
  priority: number;
}

/** A carrier as the operator sees it: everything but its password. */
export interface SmsCarrierView {
  id: number;
  name: string;
  url: string;
  protocol: string;
  /** host:port of the URL. */
  host: string;
  systemId: string;
  sourceAddr: string;
  perSecond: number;
  enabled: boolean;
  createdAt: number;
  updatedAt: number;
  routes: SmsRouteView[];
}

/** The answer of the carriers list: the carriers and how soon a running worker sees a change. */
export interface SmsCarriersList {
  carriers: SmsCarrierView[];
  refreshSeconds: number;
}
