import type { Generated } from 'kysely';

/** Row types of suppression (migration 0018). */

export interface SuppressionGlobalInvalidTable {
  /** Lower-cased recipient address. */
  address: string;
  times_seen: number;
  blocked_until: number;
  detail: string;
  first_seen_at: number;
  last_seen_at: number;
}

export type SuppressionEntryList = 'bounce' | 'unsubscribe' | 'spam' | 'user_defined';

export interface SuppressionEntriesTable {
  id: Generated<number>;
  account_id: number;
  list: SuppressionEntryList;
  address: string;
  domain: string;
  /** 0 = every API_USER (unsubscribe scope); otherwise api_users.id. */
  api_user_id: Generated<number>;
  /** 0 = every label (unsubscribe scope); otherwise labels.id. */
  label_id: Generated<number>;
  /** product-spec §8 reason key (not_exist, spam, unsubscribed, blacklist...). */
  reason: string;
  /** The remote reply or the user's action, for the list screens. */
  detail: string | null;
  /** Where the entry came from: delivery, console, import, apiv2, complaint, link. */
  source: string;
  expires_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface SuppressionReleasesTable {
  account_id: number;
  address: string;
  released_at: number;
}

export interface InterceptRulesTable {
  id: Generated<number>;
  account_id: number;
  api_user_id: Generated<number>;
  type: 'address' | 'domain' | 'keyword';
  value: string;
  note: string | null;
  created_at: number;
}
