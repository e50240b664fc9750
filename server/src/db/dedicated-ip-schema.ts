import type { DedicatedIpStatus, DedicatedIpVoidReason, IpPoolStatus } from '@herald/shared';
import type { Generated } from 'kysely';

/** Row types of dedicated IPs (migration 0055). */
export interface DedicatedIpsTable {
  id: Generated<number>;
  account_id: number;
  domain_id: number;
  /** The sending domain's name when bought: the A record's host. */
  domain_name: string;
  address: string | null;
  status: DedicatedIpStatus;
  months: number;
  price_month_fen: number;
  starts_at: number | null;
  ends_at: number | null;
  a_record_deadline: number | null;
  a_record_seen_at: number | null;
  a_record_checked_at: number | null;
  a_record_error: string | null;
  /** The last Beijing month ("2026-11") whose fee was posted. */
  billed_through: string | null;
  void_reason: DedicatedIpVoidReason | null;
  created_by: number | null;
  created_at: number;
  updated_at: number;
}

export interface IpPoolTable {
  id: Generated<number>;
  address: string;
  status: IpPoolStatus;
  purchase_id: number | null;
  created_at: number;
  updated_at: number;
}
