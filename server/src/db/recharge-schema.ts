import type { RechargeChannel, RechargeStatus, RechargeType } from '@herald/shared';
import type { Generated } from 'kysely';

/** Row types of recharges (migration 0052). */
export interface RechargeOrdersTable {
  id: Generated<number>;
  out_trade_no: string;
  account_id: number;
  /** The user who ordered it; null for an operator's offline record. */
  user_id: number | null;
  type: RechargeType;
  channel: RechargeChannel;
  amount_fen: number;
  provider_currency: string;
  provider_amount: string;
  provider_order_id: string | null;
  provider_txn_id: string | null;
  status: RechargeStatus;
  failure: string | null;
  remitter: string | null;
  note: string | null;
  created_by: number | null;
  created_at: number;
  expires_at: number;
  /** When reconciliation last asked the provider about it. */
  checked_at: number | null;
  paid_at: number | null;
  closed_at: number | null;
}

export interface PaymentSettingsTable {
  provider: 'alipay' | 'paypal';
  enabled: number;
  /** The provider's settings as JSON, sealed (SecretBox). */
  sealed: string;
  updated_at: number;
}
