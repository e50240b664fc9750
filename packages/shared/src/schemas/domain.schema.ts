import { z } from 'zod';
import type { DnsCheckErrorCode } from '../errors/dns-check.errors.ts';
import type { ErrorParams } from '../errors.ts';
import type { ValidationKey } from '../validation.ts';

/**
 * Sending domains (product-spec §3–5, console-spec §7 "/config/domains"). The same name rule
 * validates the console form, the console API and the SendCloud-compatible domain/add|update.
 * Whether a name is one of the platform's own domains depends on the server's configuration, so
 * the server checks that with `isReservedDomain` after the schema.
 */
const rule = (key: ValidationKey) => ({ message: key });

export const DOMAIN_MAX = 5;
export const DOMAIN_NAME_MAX = 250;

export const DOMAIN_STATUSES = ['unverified', 'usable', 'verified'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

/** The records Herald asks a domain to publish; DMARC is optional (product-spec §3). */
export const DOMAIN_RECORD_KINDS = ['spf', 'dkim', 'mx', 'dmarc'] as const;
export type DomainRecordKind = (typeof DOMAIN_RECORD_KINDS)[number];
export const REQUIRED_RECORD_KINDS: readonly DomainRecordKind[] = ['spf', 'dkim', 'mx'];

/** pending: never checked; missing: nothing published; invalid: published but wrong; error: DNS failed. */
export const RECORD_STATUSES = ['pending', 'ok', 'missing', 'invalid', 'error'] as const;
export type DomainRecordStatus = (typeof RECORD_STATUSES)[number];

/** SendCloud's `verify` bitmask (domain/list): one bit per record that passes. */
export const DOMAIN_VERIFY_BITS = { dkim: 1, spf: 2, mx: 4, cname: 8, verifyKey: 16 } as const;

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const TOP_LABEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/** A host name of at least two labels (RFC 1123), ending in an alphabetic or IDN top-level label. */
export function isDomainName(name: string): boolean {
  const labels = name.split('.');
  if (labels.length < 2) return false;
  return labels.every((label) => LABEL.test(label)) && TOP_LABEL.test(labels[labels.length - 1] ?? '');
}

/** True when `name` is one of `reserved` or a name below one of them. */
export function isReservedDomain(name: string, reserved: readonly string[]): boolean {
  const n = name.toLowerCase();
  return reserved.some((r) => {
    const d = r.toLowerCase().replace(/\.$/, '');
    return d !== '' && (n === d || n.endsWith(`.${d}`));
  });
}

export const domainNameSchema = z
  .string(rule('required'))
  .trim()
  .toLowerCase()
  .transform((v) => v.replace(/\.$/, ''))
  .pipe(
    z
      .string()
      .min(1, rule('required'))
      .max(DOMAIN_NAME_MAX, rule('domainNameLength'))
      .refine(isDomainName, rule('domainNameFormat')),
  );

export const domainCreateSchema = z.object({ name: domainNameSchema });
export type DomainCreateInput = z.infer<typeof domainCreateSchema>;

export const domainUpdateSchema = z.object({ name: domainNameSchema });
export type DomainUpdateInput = z.infer<typeof domainUpdateSchema>;

export const domainIdSchema = z.coerce.number(rule('invalid')).int(rule('invalid')).positive(rule('invalid'));

export const domainListQuerySchema = z.object({
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  name: z.string().trim().max(DOMAIN_NAME_MAX).optional(),
});
export type DomainListQuery = z.infer<typeof domainListQuerySchema>;

/** A check's verdict, as stored with the record: a code of the catalogue and its parameters. */
export interface DnsCheckError {
  code: DnsCheckErrorCode | 'DOMAIN_PLATFORM_HOST_UNSET';
  params: ErrorParams;
}

/** One record a domain publishes, with what the last check found. */
export interface DomainRecordView {
  kind: DomainRecordKind;
  type: 'TXT' | 'MX';
  /** The full name (FQDN, no trailing dot). */
  host: string;
  /**
   * The host as DNS providers' consoles ask for it ("主机记录"): relative to `zone`, `@` at the
   * zone's apex. Herald cannot know the zone, so it assumes the registrable domain (the name one
   * label below its public suffix: mail.example.co.uk lives in example.co.uk).
   */
  hostPrefix: string;
  zone: string;
  value: string;
  /** MX records carry a preference; any value works, 10 is suggested. */
  priority?: number;
  required: boolean;
  status: DomainRecordStatus;
  found: string | null;
  /** The problem in English (API clients); a check before codes existed left only this text. */
  error: string | null;
  /** The problem as a code and its parameters, for the reader's language; null with an old text. */
  errorCode: DnsCheckError['code'] | null;
  errorParams: ErrorParams | null;
  /**
   * Set when the platform's own name for this record is not configured (no HERALD_HOSTNAME): the
   * variable the operator must set. `value` is then a placeholder, never something to publish;
   * show DOMAIN_PLATFORM_HOST_UNSET with `{ setting }` instead.
   */
  missingSetting?: 'HERALD_SPF_DOMAIN' | 'HERALD_INBOUND_MX_HOST';
}

export interface DomainView {
  id: number;
  name: string;
  status: DomainStatus;
  ipType: 'shared' | 'dedicated';
  dkimSelector: string;
  records: DomainRecordView[];
  /** A DKIM rotation's new record, to publish beside the current one; null when none is under way. */
  pendingDkim: DomainRecordView | null;
  /** SendCloud's bitmask of passing records (dkim=1, spf=2, mx=4, cname=8, verifyKey=16). */
  verify: number;
  verifyKey: string;
  checkedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** A page of the domain list. */
export interface DomainPage {
  list: DomainView[];
  total: number;
}

/** The signing key of a domain: always RSA, its size and selector. */
export interface DkimKeyInfo {
  selector: string;
  bits: number;
  algorithm: string;
}

/** `/config/domainConfigs/dkim`: the key and the record to publish for it. */
export interface DkimConfigView extends DkimKeyInfo {
  domainId: number;
  name: string;
  record?: DomainRecordView | undefined;
}
