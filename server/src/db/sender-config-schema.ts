import type { Generated } from 'kysely';

/** Row types of sender configurations and queue pauses (migration 0019). */

export interface SenderConfigSwitchesTable {
  account_id: number;
  /** A SenderConfigKind of the shared schema. */
  kind: string;
  enabled: number;
  updated_at: number;
}

export interface SenderConfigEntriesTable {
  id: Generated<number>;
  account_id: number;
  kind: string;
  /** What makes the entry unique within its kind: receiving domain, TLS domain, window, or ''. */
  entry_key: string;
  /** JSON of the entry as the shared schema parsed it. */
  settings: string;
  created_at: number;
  updated_at: number;
}

export interface QueuePausesTable {
  id: Generated<number>;
  account_id: number;
  /** null: every API_USER of the account. */
  api_user_id: number | null;
  /** Sending (from) domain, lower case; null: every domain. */
  domain: string | null;
  /** null: mail with any label or none. */
  label_id: number | null;
  starts_at: number;
  /** null: until resumed, or until expires_at. */
  recover_at: number | null;
  /** For a pause without a recover time: when it is deleted automatically. */
  expires_at: number | null;
  created_at: number;
}
