import { z } from 'zod';
import type { ValidationKey } from '../validation.ts';
import { yuanToFen } from './recharge.schema.ts';

/**
 * Vouchers and benefit packages (issue 18; product-spec §3 "Coupon/voucher: number or code,
 * expiry, status. Package (increment): type, quota, expiry", §6, §9; console
 * `/accountSetting/financialMangement/charge/coupon`, calls `/vouchers`, `/userBenefitPackage`).
 *
 * A voucher is money an operator gives: a 16-character code, an amount in fen, valid 3 months.
 * Using one credits its amount to the balance once; a free account cannot use one until its first
 * recharge. A package is a quota of units of one price item (1,000 emails, 500 domestic SMS) that
 * charging takes before the balance until it is used up or expires.
 */
const rule = (key: ValidationKey) => ({ message: key });

/** The letters and digits of a code: no 0/O, 1/I/L, so a code read aloud or typed is unambiguous. */
export const VOUCHER_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const VOUCHER_CODE_LENGTH = 16;
/** product-spec §9 "Voucher valid 3 months" (Beijing calendar months). */
export const VOUCHER_VALID_MONTHS = 3;
/** One voucher at most (fen). */
export const VOUCHER_MAX_FEN = 10_000_000;
/** Vouchers issued by one call at most. */
export const VOUCHER_MAX_COUNT = 100;

export const VOUCHER_STATUSES = ['unused', 'used', 'expired', 'voided'] as const;
export type VoucherStatus = (typeof VOUCHER_STATUSES)[number];
export const PACKAGE_STATUSES = ['active', 'exhausted', 'expired', 'voided'] as const;
export type PackageStatus = (typeof PACKAGE_STATUSES)[number];

/** A code as typed: spaces and dashes dropped, upper case ("abcd-efgh …" → "ABCDEFGH…"). */
export function normalizeVoucherCode(code: string): string {
  return code.replace(/[\s-]/g, '').toUpperCase();
}

const CODE = new RegExp(`^[${VOUCHER_CODE_ALPHABET}]{${VOUCHER_CODE_LENGTH}}$`);

/** The customer's "claim by code" form. */
export const voucherClaimSchema = z.object({
  code: z
    .string(rule('voucherCode'))
    .transform(normalizeVoucherCode)
    .refine((c) => CODE.test(c), rule('voucherCode')),
});
export type VoucherClaimInput = z.infer<typeof voucherClaimSchema>;

/** An operator's issue: to an account (by id in /admin) or bare (a code to hand out). */
export const voucherIssueSchema = z.object({
  accountId: z.coerce.number().int().positive().nullable().default(null),
  amount: z
    .string(rule('voucherAmount'))
    .trim()
    .refine((a) => {
      const fen = yuanToFen(a);
      return fen !== null && fen >= 1 && fen <= VOUCHER_MAX_FEN;
    }, rule('voucherAmount')),
  count: z.coerce
    .number()
    .int()
    .min(1, rule('voucherCount'))
    .max(VOUCHER_MAX_COUNT, rule('voucherCount'))
    .default(1),
  reason: z.string().trim().max(200).default(''),
});
export type VoucherIssueInput = z.input<typeof voucherIssueSchema>;

/** An operator's grant of a package (by account id in /admin). */
export const packageGrantSchema = z.object({
  accountId: z.coerce.number().int().positive(),
  /** A price code of the price catalogue: email, sms_domestic, … */
  type: z.string(rule('packageType')).trim().min(1, rule('packageType')).max(40, rule('packageType')),
  quota: z.coerce.number().int().min(1, rule('packageQuota')).max(1_000_000_000, rule('packageQuota')),
  months: z.coerce.number().int().min(1, rule('packageMonths')).max(36, rule('packageMonths')).default(1),
  reason: z.string().trim().max(200).default(''),
});
export type PackageGrantInput = z.input<typeof packageGrantSchema>;

export const vouchersQuerySchema = z.object({
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  status: z.enum(VOUCHER_STATUSES).optional().catch(undefined),
  accountId: z.coerce.number().int().positive().optional().catch(undefined),
});
export type VouchersQuery = z.infer<typeof vouchersQuerySchema>;

export interface VoucherView {
  id: number;
  code: string;
  amountFen: number;
  /** The account it was given to or claimed by; null for a bare one not yet claimed. */
  accountId: number | null;
  status: VoucherStatus;
  reason: string;
  issuedAt: number;
  expiresAt: number;
  usedAt: number | null;
}

export interface VouchersPage {
  list: VoucherView[];
  total: number;
  /** The account is on the free plan: its vouchers can be used after its first recharge. */
  free: boolean;
}

export interface BenefitPackageView {
  id: number;
  accountId: number;
  /** The price code whose units the package covers. */
  type: string;
  quota: number;
  used: number;
  status: PackageStatus;
  reason: string;
  startsAt: number;
  expiresAt: number;
  createdAt: number;
}

/** A voucher used: what it added and the balance after. */
export interface VoucherUseView {
  voucher: VoucherView;
  balanceFen: number;
}
