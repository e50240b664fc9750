import { z } from 'zod';
import type { ErrorParams } from '../errors.ts';
import type { ValidationKey } from '../validation.ts';
import { type DnsCheckError, domainNameSchema } from './domain.schema.ts';
import { senderSwitchSchema } from './sender-config.schema.ts';
import { DATA_PAGE_SIZE_MAX } from './suppression.schema.ts';

/**
 * Tracking (product-spec §3 "Tracking domain: name, host record, primary domain, record to
 * configure, existing record, status, ICP status. Switches: open, click, unsubscribe" and
 * "HTTPS certificate: domain, expiry, PEM certificate content and private key"; §9 "Max 5 custom
 * tracking domains"; data queries up to 6 months back). The console forms and the routes parse
 * with these schemas.
 */
const rule = (key: ValidationKey) => ({ message: key });
const DAY_MS = 86_400_000;

export const TRACK_DOMAIN_MAX = 5;
/** product-spec §5 "PEM certificate valid for longer than a set number of days". */
export const SSL_MIN_VALID_DAYS = 7;
/** product-spec §9 "data queries up to 6 months". */
export const TRACK_QUERY_MAX_DAYS = 183;
export const TRACK_QUERY_MAX_MS = TRACK_QUERY_MAX_DAYS * DAY_MS;

export const TRACK_DOMAIN_STATUSES = ['unverified', 'verified'] as const;
export type TrackDomainStatus = (typeof TRACK_DOMAIN_STATUSES)[number];
export const TRACK_TYPES = ['open', 'click'] as const;
export type TrackType = (typeof TRACK_TYPES)[number];

/** The sending domains' name rule (RFC 1123 host name, at most 250 characters). */
const trackDomainName = domainNameSchema;

const optionalSwitch = z.preprocess((v) => (v === '' ? undefined : v), senderSwitchSchema.optional());

export const trackDomainInputSchema = z.object({
  name: trackDomainName,
  open: optionalSwitch.default(true),
  click: optionalSwitch.default(true),
  unsubscribe: optionalSwitch.default(true),
});
export type TrackDomainInput = z.infer<typeof trackDomainInputSchema>;

/** Editing: a new name (which must be verified again) and/or the switches. */
export const trackDomainUpdateSchema = z.object({
  name: trackDomainName.optional(),
  open: optionalSwitch,
  click: optionalSwitch,
  unsubscribe: optionalSwitch,
});
export type TrackDomainUpdate = z.infer<typeof trackDomainUpdateSchema>;

export const trackIdSchema = z.coerce.number(rule('invalid')).int(rule('invalid')).positive(rule('invalid'));

export interface TrackDomainView {
  id: number;
  name: string;
  /** The host part below the primary domain ("track" of track.example.com). */
  hostRecord: string;
  primaryDomain: string;
  recordType: 'CNAME';
  /** The record to configure: the platform's tracking host. */
  recordValue: string;
  /** What the last check found at the name. */
  existingRecord: string | null;
  status: TrackDomainStatus;
  /** The last check's problem in English; `checkErrorCode` says it in the reader's language. */
  checkError: string | null;
  checkErrorCode: DnsCheckError['code'] | null;
  checkErrorParams: ErrorParams | null;
  /** ICP filing is checked by the hosting provider, not by Herald. */
  icpStatus: 'unchecked';
  open: boolean;
  click: boolean;
  unsubscribe: boolean;
  isDefault: boolean;
  /** An HTTPS certificate for this name is uploaded and valid. */
  https: boolean;
  checkedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

const pem = (key: ValidationKey, marker: RegExp) =>
  z.string(rule(key)).trim().min(1, rule(key)).max(64_000, rule('lengthExceeded')).regex(marker, rule(key));

export const sslInputSchema = z.object({
  domain: trackDomainName,
  certificate: pem('sslCertRequired', /-----BEGIN CERTIFICATE-----/),
  privateKey: pem('sslKeyRequired', /-----BEGIN [A-Z ]*PRIVATE KEY-----/),
});
export type SslInput = z.infer<typeof sslInputSchema>;

export interface SslCertificateView {
  id: number;
  domain: string;
  subject: string;
  issuer: string;
  validFrom: number;
  validTo: number;
  fingerprint: string;
  createdAt: number;
}

const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
const optionalTime = z.preprocess(
  blankToUndefined,
  z.coerce.number(rule('invalid')).int(rule('invalid')).nonnegative(rule('invalid')).optional(),
);
const optionalId = z.preprocess(
  (v) => (v === '' || v === null || v === undefined || v === 0 || v === '0' ? undefined : v),
  z.coerce.number(rule('invalid')).int(rule('invalid')).positive(rule('invalid')).optional(),
);

/**
 * The open/click list (`/data/emailTracks`): a time range (ms; the last 7 days when none is given)
 * within the last 6 months, an address, open or click, an API_USER, a label, a page.
 */
export const emailTracksQuerySchema = z
  .object({
    startTime: optionalTime,
    endTime: optionalTime,
    email: z.preprocess(blankToUndefined, z.string().trim().max(254, rule('lengthExceeded')).optional()),
    trackType: z.preprocess(blankToUndefined, z.enum(TRACK_TYPES, rule('invalid')).optional()),
    apiUserId: optionalId,
    labelId: optionalId,
    page: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).default(1)),
    pageSize: z.preprocess(
      blankToUndefined,
      z.coerce.number().int().min(1).max(DATA_PAGE_SIZE_MAX).default(20),
    ),
  })
  .superRefine((q, ctx) => {
    if (q.startTime !== undefined && q.endTime !== undefined && q.endTime < q.startTime) {
      ctx.addIssue({ code: 'custom', path: ['endTime'], message: 'trackRangeOrder' });
    }
  });
export type EmailTracksQuery = z.infer<typeof emailTracksQuerySchema>;

/** One open or click as the open/click screen shows it. */
export interface EmailTrackView {
  id: number;
  at: number;
  trackType: TrackType;
  email: string;
  emailId: string | null;
  url: string | null;
  apiUserId: number | null;
  apiUser: string | null;
  labelId: number | null;
  ip: string | null;
  userAgent: string | null;
  explorerName: string | null;
  explorerVer: string | null;
  oSName: string | null;
  oSVer: string | null;
  bot: boolean;
  first: boolean;
}

/**
 * One row of the SendCloud-compatible `openandclick/list` (reference §8): SendCloud's fields plus
 * Herald's `isMachine`, true when an image proxy, a link scanner, a HEAD request or a fetch within
 * seconds of delivery made the hit (such hits never count toward the unique figures). Webhook
 * pushes of opens and clicks carry the same flag as the form field `isMachine` = "true" | "false".
 */
export interface OpenAndClickItem {
  email: string;
  /** 1 open, 2 click. */
  trackType: 1 | 2;
  url: string;
  apiUser: string | null;
  /** `yyyy-MM-dd HH:mm:ss`. */
  currTime: string | null;
  isMachine: boolean;
}
