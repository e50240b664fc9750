import type { TimedTaskStatus } from '@herald/shared';
import type { Generated } from 'kysely';

/** Timed tasks (migration 0050). */
export interface TimedTasksTable {
  id: Generated<number>;
  account_id: number;
  /** The console user who made it (the `taskPrivate` parameter shows users their own). */
  created_by: number | null;
  api_user_id: number;
  name: string;
  from_name: string;
  from_address: string;
  reply_to: string | null;
  template_id: number;
  /** JSON array of address-list ids, in the order chosen. */
  list_ids: string;
  label_id: number | null;
  tag: string | null;
  /** The wall-clock time chosen (`yyyy-MM-dd HH:mm[:ss]`) in `time_zone`. */
  local_time: string;
  time_zone: string;
  /** That time as an instant (ms). */
  send_at: number;
  status: TimedTaskStatus;
  /** 1 once its request is made (the shared claim reclaims a 'sending' task with 0). */
  written: Generated<number>;
  lease_owner: string | null;
  lease_until: number | null;
  /** Why the request failed (an error code). */
  error_code: string | null;
  created_at: number;
  updated_at: number;
  started_at: number | null;
  ended_at: number | null;
}

/** Attachments of timed tasks; `task_id` null until a task names the upload. */
export interface TimedTaskFilesTable {
  id: Generated<number>;
  account_id: number;
  task_id: number | null;
  name: string;
  content_type: string;
  size: number;
  content: Buffer;
  created_at: number;
}
