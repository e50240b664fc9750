import type { MailEventData, MailEventKind } from '@herald/shared';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { MailEventsTable } from '../../db/mail-event-schema.ts';
import type { DB } from '../../db/schema.ts';
import { appendRecipientEvents, type RecipientEvent } from './mail-events.repo.ts';

export interface MailEvent {
  id: number;
  accountId: number;
  kind: MailEventKind;
  at: number;
  messageId: number;
  recipientId: number | null;
  emailId: string | null;
  recipient: string;
  recipientDomain: string;
  apiUserId: number | null;
  labelId: number | null;
  subStatus: number | null;
  reason: string | null;
  latencyMs: number | null;
  data: MailEventData;
}

/**
 * The mail event log: producers append in their own transactions (the accept and outcome writers
 * through mail-events.repo.ts; tracking, unsubscribes and complaints through `append`), and
 * consumers (webhooks, statistics, …) read it in order through named cursors with `consume`.
 */
export class MailEventsService {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  /** Appends recipient events inside `trx` (or a transaction of its own). */
  async append(events: RecipientEvent[], trx?: Kysely<DB>): Promise<void> {
    if (trx) return appendRecipientEvents(trx, this.database.dialect, events);
    await this.database.db
      .transaction()
      .execute((t) => appendRecipientEvents(t, this.database.dialect, events));
  }

  /**
   * Reads up to `limit` events after consumer `name`'s cursor and hands them to `apply`, in one
   * transaction with the cursor's advance: what `apply` writes and the cursor commit together,
   * so a crash re-reads the batch and never applies it twice. Concurrent consumers of the same
   * name queue on the cursor row. Returns how many events were applied (0: caught up).
   */
  async consume(
    name: string,
    limit: number,
    apply: (events: MailEvent[], trx: Kysely<DB>) => Promise<void>,
  ): Promise<number> {
    return this.database.db.transaction().execute(async (trx) => {
      const now = Date.now();
      // Take the cursor row first (and the write lock with it on SQLite) so two consumers of
      // one name never read the same batch.
      await trx
        .insertInto('mail_event_cursors')
        .values({ name, last_id: 0, updated_at: now })
        .onConflict((oc) => oc.column('name').doUpdateSet({ updated_at: now }))
        .execute();
      let cursor = trx.selectFrom('mail_event_cursors').select('last_id').where('name', '=', name);
      if (this.database.dialect === 'postgres') cursor = cursor.forUpdate();
      const { last_id } = await cursor.executeTakeFirstOrThrow();
      const rows = await trx
        .selectFrom('mail_events')
        .selectAll()
        .where('id', '>', last_id)
        .orderBy('id')
        .limit(limit)
        .execute();
      if (rows.length === 0) return 0;
      await apply(rows.map(toMailEvent), trx);
      await trx
        .updateTable('mail_event_cursors')
        .set({ last_id: Number(rows[rows.length - 1]?.id), updated_at: now })
        .where('name', '=', name)
        .execute();
      return rows.length;
    });
  }

  /** Where consumer `name` stands (0 before its first batch). */
  async cursor(name: string): Promise<number> {
    const row = await this.database.db
      .selectFrom('mail_event_cursors')
      .select('last_id')
      .where('name', '=', name)
      .executeTakeFirst();
    return row ? Number(row.last_id) : 0;
  }

  /** The newest event id: with cursor(), how far behind a consumer is. */
  async head(): Promise<number> {
    const row = await this.database.db
      .selectFrom('mail_events')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    return Number(row?.id ?? 0);
  }
}

export function toMailEvent(row: Selectable<MailEventsTable>): MailEvent {
  return {
    id: Number(row.id),
    accountId: Number(row.account_id),
    kind: row.kind,
    at: Number(row.at),
    messageId: Number(row.message_id),
    recipientId: row.recipient_id === null ? null : Number(row.recipient_id),
    emailId: row.email_id,
    recipient: row.recipient,
    recipientDomain: row.recipient_domain,
    apiUserId: row.api_user_id === null ? null : Number(row.api_user_id),
    labelId: row.label_id === null ? null : Number(row.label_id),
    subStatus: row.sub_status,
    reason: row.reason,
    latencyMs: row.latency_ms === null ? null : Number(row.latency_ms),
    data: row.data ? (JSON.parse(row.data) as MailEventData) : {},
  };
}
