import type { SmsTaskStatus } from '@herald/shared';
import type { Generated } from 'kysely';

/** Where an SMS task stands (migration 0046): SMS_TASK_STATUSES in @herald/shared. */
export type { SmsTaskStatus };

/** An SMS task: a template sent to the members of its contact lists (migration 0046). */
export interface SmsTasksTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  template_id: number;
  /** The signature put in front, when it is not the template's own. */
  sign_name: string | null;
  label_id: number | null;
  /** JSON array of contact list ids, in the order they are sent. */
  list_ids: string;
  /** When it may start (the moment it was created for a task sent now). */
  send_at: number;
  /** 1 when created for a later time. */
  scheduled: number;
  status: SmsTaskStatus;
  /** console or api */
  source: string;
  /** The task whose failed messages this one sends again. */
  resend_of: number | null;
  /** The task that sent this one's failed messages again (a task is resent once). */
  resent_by: number | null;
  /** Numbers in its lists when it started. */
  member_total: Generated<number>;
  /** Messages written for it. */
  queued: Generated<number>;
  /** Numbers left out when writing (frequency limits, a number of the other region, variables). */
  skipped: Generated<number>;
  /** JSON object: skipped numbers by error code. */
  skip_reasons: Generated<string>;
  /** Index into list_ids of the list being written. */
  cursor_list: Generated<number>;
  /** Last number of that list written (members are read in number order). */
  cursor_phone: Generated<string>;
  /** A resend's cursor: the last failed message of the original task sent again. */
  cursor_message: Generated<number>;
  /** 1 once every message is written. */
  written: Generated<number>;
  lease_owner: string | null;
  lease_until: number | null;
  /** Why a task failed before its messages were written (an error code). */
  error_code: string | null;
  created_at: number;
  updated_at: number;
  started_at: number | null;
  ended_at: number | null;
}
