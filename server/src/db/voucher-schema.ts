import type { PackageStatus, VoucherStatus } from '@herald/shared';
import type { Generated } from 'kysely';

/** Row types of vouchers and benefit packages (migration 0054). */
export interface VouchersTable {
  id: Generated<number>;
  code: string;
  /** Null for a bare voucher until someone claims it by its code. */
  account_id: number | null;
  amount_fen: number;
  status: VoucherStatus;
  reason: string;
  /** The operator user who issued it; null from the command line. */
  issued_by: number | null;
  issued_at: number;
  expires_at: number;
  claimed_at: number | null;
  used_at: number | null;
  used_by: number | null;
  voided_at: number | null;
}

export interface BenefitPackagesTable {
  id: Generated<number>;
  account_id: number;
  /** A price code (email, sms_domestic, …). */
  type: string;
  quota: number;
  used: number;
  status: PackageStatus;
  reason: string;
  granted_by: number | null;
  starts_at: number;
  expires_at: number;
  created_at: number;
  updated_at: number;
}

export interface PackageUsageTable {
  package_id: number;
  /** Asia/Shanghai day of the outcomes the units covered. */
  day: string;
  units: number;
  updated_at: number;
}
