import type { Generated } from 'kysely';
import type { SmsContactImportsTable } from './sms-schema.ts';

/** Email address lists (migration 0047). */
export interface AddressListsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  description: Generated<string>;
  /** The alias's part before the @, lower-cased: unique on the platform. */
  prefix: string;
  /** Committed members only: kept in step by every add, delete and committed import. */
  member_count: Generated<number>;
  /** JSON array: the variable names its members carry, in first-seen order. */
  var_names: Generated<string>;
  /** The import whose rows are written but not yet part of the list; null when none runs. */
  pending_import_id: number | null;
  created_at: number;
  updated_at: number;
  last_used_at: number | null;
}

export interface AddressListMembersTable {
  id: Generated<number>;
  list_id: number;
  /** Lower-cased. */
  address: string;
  name: Generated<string>;
  /** JSON object of up to 10 variables; null when none. */
  vars: string | null;
  /** The import that wrote it; hidden while that import is its list's pending one. */
  import_id: number | null;
  created_at: number;
  /** Null until the member is changed. */
  updated_at: number | null;
}

/** An import into an address list: the same record as a contact list's (list-imports.repo.ts). */
export type AddressListImportsTable = SmsContactImportsTable;
