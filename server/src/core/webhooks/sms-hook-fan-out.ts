import { SMS_HOOK_EVENT_TYPES, type SmsHookEvent } from '@herald/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { advanceCursor, lockCursor } from '../mail-events/mail-events.repo.ts';
import * as deliveries from './deliveries.repo.ts';
import type { PushFields } from './webhook-payload.ts';
import * as webhooks from './webhooks.repo.ts';

/** The cursor of the SMSHook consumer of the SMS event log (kept beside the mail consumers'). */
export const SMS_HOOK_CURSOR = 'smshooks';

export interface SmsEventRow {
  id: number;
  account_id: number;
  kind: SmsHookEvent;
  status_code: number;
  message: string | null;
  at: number;
  sms_id: string;
  phone: string;
  country: string;
  template_id: number | null;
  label_id: number | null;
  tag: string | null;
  sms_user_id: number | null;
  sms_user: string | null;
}

/**
 * The SMSHook half of the fan-out: the next batch of SMS events (sms_events) becomes one outbox
 * row per event and SMSHook that wants it (same account, its SMS_USER or all, the event chosen),
 * in the transaction that advances the cursor, so no event is pushed twice or lost. The pushes
 * themselves go out with the email webhooks' (webhook-dispatcher.ts), signed and retried alike.
 * Answers how many events were read and how many pushes were queued.
 */
export async function fanOutSmsEvents(
  database: Database,
  limit: number,
  now: number,
): Promise<{ read: number; queued: number }> {
  return database.db.transaction().execute(async (trx) => {
    const lastId = await lockCursor(trx, database.dialect, SMS_HOOK_CURSOR, now);
    const rows = await eventsAfter(trx, lastId, limit);
    if (rows.length === 0) return { read: 0, queued: 0 };
    const hooks = await webhooks.normalHooksOf(
      trx,
      [...new Set(rows.map((r) => Number(r.account_id)))],
      'sms',
    );
    const pushes: deliveries.NewDelivery[] = [];
    for (const row of rows) {
      for (const hook of hooks) {
        const wanted =
          Number(hook.account_id) === Number(row.account_id) &&
          (Number(hook.api_user_id) === 0 || Number(hook.api_user_id) === Number(row.sms_user_id)) &&
          hook.events.split(',').includes(row.kind);
        if (!wanted) continue;
        pushes.push({
          account_id: Number(row.account_id),
          webhook_id: Number(hook.id),
          event: row.kind as never,
          event_id: Number(row.id),
          recipient: row.phone,
          payload: JSON.stringify(smsPushFields(row)),
          event_at: Number(row.at),
        });
      }
    }
    if (pushes.length > 0) await deliveries.enqueue(trx, pushes, now);
    await advanceCursor(trx, SMS_HOOK_CURSOR, Number(rows[rows.length - 1]?.id), now);
    return { read: rows.length, queued: pushes.length };
  });
}

function eventsAfter(trx: Kysely<DB>, lastId: number, limit: number): Promise<SmsEventRow[]> {
  return trx
    .selectFrom('sms_events as e')
    .innerJoin('sms_messages as m', 'm.id', 'e.sms_message_id')
    .leftJoin('sms_users as u', 'u.id', 'm.sms_user_id')
    .select([
      'e.id',
      'e.account_id',
      'e.kind',
      'e.status_code',
      'e.message',
      'e.at',
      'm.sms_id',
      'm.phone',
      'm.country',
      'm.template_id',
      'm.label_id',
      'm.tag',
      'm.sms_user_id',
      'u.name as sms_user',
    ])
    .where('e.id', '>', lastId)
    .orderBy('e.id')
    .limit(limit)
    .execute() as Promise<SmsEventRow[]>;
}

/**
 * The fields of one SMSHook push (reference §11): the event and its SendCloud eventType, the SMS
 * and its number (mainland numbers without +86, as clients sent them), the template, label and
 * tag, and for an error its status code with the reason, plain and base64.
 */
export function smsPushFields(row: SmsEventRow): PushFields {
  const phone = row.country === 'CN' ? row.phone.replace(/^\+86/, '') : row.phone;
  const fields: PushFields = {
    event: row.kind,
    eventType: String(SMS_HOOK_EVENT_TYPES[row.kind]),
    smsId: row.sms_id,
    phone,
    smsUser: row.sms_user ?? '',
    userId: String(row.account_id),
    templateId: row.template_id === null ? '' : String(row.template_id),
    labelId: row.label_id === null ? '' : String(row.label_id),
  };
  if (row.tag) fields.tag = row.tag;
  if (row.kind === 'request') {
    fields.smsIds = JSON.stringify([row.sms_id]);
    fields.phones = JSON.stringify([phone]);
  }
  if (row.kind === 'workererror' || row.kind === 'delivererror') {
    const message = row.message ?? '';
    fields.statusCode = String(row.status_code);
    fields.message = message;
    fields.encodeMessage = Buffer.from(message, 'utf8').toString('base64');
  }
  if (row.kind === 'reply') {
    const content = row.message ?? '';
    fields.replyContent = content;
    fields.encodeReplyContent = Buffer.from(content, 'utf8').toString('base64');
    fields.replyTime = String(row.at);
  }
  return fields;
}
