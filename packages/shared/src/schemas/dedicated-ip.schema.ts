import { z } from 'zod';
import { BEIJING_OFFSET_MS } from '../beijing-time.ts';
import type { ValidationKey } from '../validation.ts';

/**
 * Dedicated IPs (issue 18; product-spec §3 "Dedicated IP purchase", §4 "voided without an A
 * record within 7 days", §6 paid only, §9 prices; console `/sendSetting/ipManager`, calls
 * `/ipResources/*`, `/config/independentIpInfo`). A paid account buys addresses for one of its
 * sending domains for a number of months (a year at least); each address is one purchase. The
 * operator assigns an address from the pool; the customer then publishes an A record of the
 * sending domain pointing at it within 7 days, or the purchase is voided. Fees are taken from
 * the balance on the 1st of each Beijing month for the days of the month before: a whole month
 * costs 500 yuan, a part of one (the first, the last) its share of the days, rounded up to the fen.
 */
const rule = (key: ValidationKey) => ({ message: key });

/** product-spec §9 "Dedicated IP 500 yuan per month per IP". */
export const DEDICATED_IP_MONTH_FEN = 50_000;
/** product-spec §9 "minimum one year". */
export const DEDICATED_IP_MIN_MONTHS = 12;
export const DEDICATED_IP_MAX_MONTHS = 36;
export const DEDICATED_IP_MAX_COUNT = 10;
/** product-spec §4: an address whose A record is not found within this many days is voided. */
export const DEDICATED_IP_A_RECORD_DAYS = 7;
/** How the fees are paid: from the account's balance (the ledger). */
export const DEDICATED_IP_PAYMENT_METHOD = 'balance' as const;

/** pending (waiting for the operator's address) → active → expired; or voided (no A record in time). */
export const DEDICATED_IP_STATUSES = ['pending', 'active', 'voided', 'expired'] as const;
export type DedicatedIpStatus = (typeof DEDICATED_IP_STATUSES)[number];
/** An address of the operator's pool. */
export const IP_POOL_STATUSES = ['free', 'assigned', 'disabled'] as const;
export type IpPoolStatus = (typeof IP_POOL_STATUSES)[number];
/** Why a purchase was voided. */
export const DEDICATED_IP_VOID_REASONS = ['a_record_missing'] as const;
export type DedicatedIpVoidReason = (typeof DEDICATED_IP_VOID_REASONS)[number];

export const dedicatedIpPurchaseSchema = z.object({
  domainId: z.coerce
    .number(rule('dedicatedIpDomain'))
    .int(rule('dedicatedIpDomain'))
    .min(1, rule('dedicatedIpDomain')),
  count: z.coerce
    .number(rule('dedicatedIpCount'))
    .int(rule('dedicatedIpCount'))
    .min(1, rule('dedicatedIpCount'))
    .max(DEDICATED_IP_MAX_COUNT, rule('dedicatedIpCount')),
  months: z.coerce
    .number(rule('dedicatedIpMonths'))
    .int(rule('dedicatedIpMonths'))
    .min(DEDICATED_IP_MIN_MONTHS, rule('dedicatedIpMonths'))
    .max(DEDICATED_IP_MAX_MONTHS, rule('dedicatedIpMonths')),
});
export type DedicatedIpPurchaseInput = z.infer<typeof dedicatedIpPurchaseSchema>;

/** The cost preview's query: the same numbers without the domain. */
export const dedicatedIpCostQuerySchema = dedicatedIpPurchaseSchema.pick({ count: true, months: true });

/** An operator's address for the pool: one IPv4 or IPv6 address. */
export const ipPoolAddressSchema = z
  .string(rule('dedicatedIpAddress'))
  .trim()
  .refine((a) => z.ipv4().safeParse(a).success || z.ipv6().safeParse(a).success, rule('dedicatedIpAddress'));

/** Days in a month of the Gregorian calendar (month 1–12). */
function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * One address's fee for `days` days of a month of `monthDays` days: a whole month is the monthly
 * price (500 yuan), a part of one its share of the days, rounded up to the fen.
 */
export function dedicatedIpMonthFee(
  days: number,
  monthDays: number,
  monthFen = DEDICATED_IP_MONTH_FEN,
): number {
  if (days <= 0) return 0;
  if (days >= monthDays) return monthFen;
  return Math.floor((monthFen * days + monthDays - 1) / monthDays);
}

export interface DedicatedIpFees {
  count: number;
  months: number;
  /** The days left in the current Beijing month, today included, and the month's length. */
  firstMonthDays: number;
  monthDays: number;
  /** What the rest of this month costs for all the addresses (deducted on the 1st of next month). */
  firstMonthFen: number;
  /** A whole month for all the addresses. */
  monthlyFen: number;
  /** The whole period: `months` whole months for all the addresses. */
  totalFen: number;
}

/**
 * The fees of buying `count` addresses for `months` months at `at` (the purchase screen's live
 * cost, and the server's balance check): the first month prorated by day, then whole months.
 */
export function dedicatedIpFees(count: number, months: number, at: number): DedicatedIpFees {
  const local = new Date(at + BEIJING_OFFSET_MS);
  const monthDays = daysInMonth(local.getUTCFullYear(), local.getUTCMonth() + 1);
  const firstMonthDays = monthDays - local.getUTCDate() + 1;
  return {
    count,
    months,
    firstMonthDays,
    monthDays,
    firstMonthFen: count * dedicatedIpMonthFee(firstMonthDays, monthDays),
    monthlyFen: count * DEDICATED_IP_MONTH_FEN,
    totalFen: count * months * DEDICATED_IP_MONTH_FEN,
  };
}

/** The A record a purchase needs: the sending domain itself, pointing at the dedicated address. */
export interface DedicatedIpARecord {
  /** The host name: the sending domain. */
  host: string;
  type: 'A' | 'AAAA';
  /** The address it must resolve to; null while no address is assigned. */
  value: string | null;
  /** Found by the check (the purchase stays); null until then. */
  seenAt: number | null;
  /** Voided if not found by then; null until an address is assigned. */
  deadline: number | null;
  checkedAt: number | null;
  /** What the last check found instead. */
  error: string | null;
}

export interface DedicatedIpView {
  id: number;
  domainId: number;
  domain: string;
  address: string | null;
  status: DedicatedIpStatus;
  months: number;
  priceMonthFen: number;
  paymentMethod: typeof DEDICATED_IP_PAYMENT_METHOD;
  startsAt: number | null;
  endsAt: number | null;
  aRecord: DedicatedIpARecord;
  voidReason: DedicatedIpVoidReason | null;
  createdAt: number;
}

export interface DedicatedIpsPage {
  list: DedicatedIpView[];
  /** False for a free account: the screen offers an upgrade instead of the purchase. */
  paid: boolean;
  balanceFen: number;
  /** The account's sending domains, for the purchase form. */
  domains: { id: number; name: string }[];
}

export interface DedicatedIpCostView extends DedicatedIpFees {
  balanceFen: number;
  /** The balance covers the first month. */
  enough: boolean;
}

/** `/config/independentIpInfo`: the account's dedicated addresses per sending domain. */
export interface IndependentIpInfo {
  domains: {
    domainId: number;
    domain: string;
    addresses: {
      purchaseId: number;
      address: string;
      status: DedicatedIpStatus;
      aRecordSeen: boolean;
      aRecordDeadline: number | null;
    }[];
  }[];
}

export interface IpPoolEntryView {
  address: string;
  status: IpPoolStatus;
  purchaseId: number | null;
  createdAt: number;
}

/** A purchase as operators see it: with its account. */
export interface AdminDedicatedIpView extends DedicatedIpView {
  accountId: number;
  userName: string;
}
