import type {
  InvoiceDelivery,
  InvoiceMaterial,
  InvoiceMethod,
  InvoiceStatus,
  InvoiceType,
} from '@herald/shared';
import type { Generated } from 'kysely';

/** Row types of invoices (migration 0053). */
export interface InvoiceProfilesTable {
  account_id: number;
  title: string;
  taxpayer_id: string;
  bank_name: string;
  bank_account: string;
  address: string;
  phone: string;
  updated_at: number;
}

export interface InvoicesTable {
  id: Generated<number>;
  account_id: number;
  /** The user who applied (or last resubmitted). */
  user_id: number | null;
  amount_fen: number;
  type: InvoiceType;
  material: InvoiceMaterial;
  delivery: InvoiceDelivery;
  method: InvoiceMethod;
  /** The profile as applied with. */
  title: string;
  taxpayer_id: string;
  bank_name: string;
  bank_account: string;
  address: string;
  phone: string;
  email: string | null;
  recipient: string | null;
  recipient_phone: string | null;
  mailing_address: string | null;
  note: string | null;
  /** Postage of the current round, taken from the balance (0: none, or refunded). */
  postage_fen: number;
  /** 0 for the first application, +1 per resubmission. */
  postage_round: number;
  status: InvoiceStatus;
  express_no: string | null;
  reject_reason: string | null;
  created_at: number;
  updated_at: number;
  invoiced_at: number | null;
  delivered_at: number | null;
  voided_at: number | null;
}
