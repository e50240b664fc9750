import type { LedgerKind } from '@herald/shared';
import type { Generated } from 'kysely';

/** Row types of the money ledger (migration 0051). */
export interface LedgerEntriesTable {
  id: Generated<number>;
  account_id: number;
  kind: LedgerKind;
  /** Signed: a recharge is positive, a charge negative. */
  amount_fen: number;
  reason: string;
  /** JSON of what the entry is for (a charge's units and day, an adjustment's operator). */
  detail: string | null;
  idempotency_key: string;
  /** The operator user of an adjustment. */
  created_by: number | null;
  created_at: number;
}

export interface AccountBalancesTable {
  account_id: number;
  balance_fen: number;
  updated_at: number;
}

export interface PricesTable {
  code: string;
  unit: number;
  fen: number;
  updated_at: number;
}

export interface ChargeAccrualsTable {
  account_id: number;
  /** Asia/Shanghai day of the outcomes. */
  day: string;
  price_code: string;
  units: number;
  /** Thousandths of a fen owed for the day so far. */
  accrued_millifen: number;
  /** What has been charged of it: ceil(accrued_millifen / 1000) after each batch. */
  charged_fen: number;
  updated_at: number;
}

export interface BalanceNoticesTable {
  account_id: number;
  level: 'low' | 'exhausted';
  balance_fen: number;
  noticed_at: number;
}
