import type { MailEventData, MailEventKind } from '@herald/shared';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/database.ts';
import { appendRecipientEvents, type RecipientEvent } from '../../db/mail-event-log.ts';
import type { MailEventsTable } from '../../db/mail-event-schema.ts';
import type { DB } from '../../db/schema.ts';
import * as repo from './mail-events.repo.ts';
import { recentEventsOf } from './recent-events.ts';

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
      const lastId = await repo.lockCursor(trx, this.database.dialect, name, now);
      const events = await this.read(trx, lastId, limit);
      if (events.length === 0) return 0;
      await apply(events, trx);
      await repo.advanceCursor(trx, name, (events.at(-1) as MailEvent).id, now);
      return events.length;
    });
  }

  /**
   * The events after `lastId`: those another consumer of this process read a moment ago from
   * memory (recent-events.ts), the rest from the log. Consumers must not change what they get.
   */
  private async read(trx: Kysely<DB>, lastId: number, limit: number): Promise<MailEvent[]> {
    const recent = recentEventsOf<MailEvent>(this.database);
    const held = recent.after(lastId, limit);
    if (held === undefined) {
      const read = (await repo.eventsAfter(trx, lastId, limit)).map(toMailEvent);
      recent.replace(lastId, read);
      return read;
    }
    if (held.length === limit) return held;
    const top = recent.top;
    const more = (await repo.eventsAfter(trx, top, limit - held.length)).map(toMailEvent);
    recent.extend(top, more);
    return held.concat(more);
  }

  /** Where consumer `name` stands (0 before its first batch). */
  cursor(name: string): Promise<number> {
    return repo.cursorOf(this.database, name);
  }

  /** The newest event id: with cursor(), how far behind a consumer is. */
  head(): Promise<number> {
    return repo.newestEventId(this.database);
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
