import type { MailEventKind } from '@herald/shared';
import type { Generated } from 'kysely';

/** Row types of the mail event log (migration 0020). */
export interface MailEventsTable {
  id: Generated<number>;
  account_id: number;
  kind: MailEventKind;
  at: number;
  /** messages.id (the row id, not SendCloud's messageId string). */
  message_id: number;
  recipient_id: number | null;
  email_id: string | null;
  recipient: string;
  recipient_domain: string;
  api_user_id: number | null;
  label_id: number | null;
  sub_status: number | null;
  reason: string | null;
  /** Accept to 250, on deliver events. */
  latency_ms: number | null;
  /** JSON of MailEventData. */
  data: string | null;
}

export interface MailEventCursorsTable {
  name: string;
  last_id: number;
  updated_at: number;
}
