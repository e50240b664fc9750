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

/** Where a list send's task stands (migration 0048). */
export type MailListTaskStatus = 'waiting' | 'sending' | 'finished' | 'failed';

/** A list send: one address list's members mailed the checked request (migration 0048). */
export interface MailListTasksTable {
  id: Generated<number>;
  account_id: number;
  api_user_id: number;
  list_id: number;
  /** The list's alias when the task was made (taskinfo's addressList). */
  list_address: string;
  /** JSON: the checked send (ListSendRequest in core/send/list-send.ts). */
  request: string;
  /** JSON array of the files, their content in base64; null without attachments. */
  attachments: string | null;
  status: MailListTaskStatus;
  /** When it may start: the moment it was made. */
  send_at: number;
  /** The list's members when the task started. */
  member_total: Generated<number>;
  /** Recipients written for it. */
  queued: Generated<number>;
  /** The last member written (members are read in address order). */
  cursor_address: Generated<string>;
  /** 1 once every member is written. */
  written: Generated<number>;
  lease_owner: string | null;
  lease_until: number | null;
  /** Why the task stopped before every member was written (an error code). */
  error_code: string | null;
  created_at: number;
  updated_at: number;
  started_at: number | null;
  ended_at: number | null;
  /** The timed task whose request made it (migration 0050), whose attachments it sends. */
  timed_task_id: number | null;
}
