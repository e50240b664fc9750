import { type ExpressionBuilder, sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';

/**
 * Queue pauses and the queue views over message_recipients, scoped to one account. A queue's
 * conditions (API_USER, sending domain, label) select messages; the recipients of those messages
 * are what a queue counts, releases or deletes.
 */
export interface PauseRow {
  id: number;
  api_user_id: number | null;
  domain: string | null;
  label_id: number | null;
  starts_at: number;
  recover_at: number | null;
  expires_at: number | null;
  created_at: number;
}

export interface Conditions {
  apiUserId?: number | null | undefined;
  domain?: string | null | undefined;
  labelId?: number | null | undefined;
}

const PAUSE_COLUMNS = [
  'id',
  'api_user_id',
  'domain',
  'label_id',
  'starts_at',
  'recover_at',
  'expires_at',
  'created_at',
] as const;

export async function listPauses({ db }: Database, accountId: number): Promise<PauseRow[]> {
  return db
    .selectFrom('queue_pauses')
    .select(PAUSE_COLUMNS)
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
}

export async function findPause(
  { db }: Database,
  accountId: number,
  id: number,
): Promise<PauseRow | undefined> {
  return db
    .selectFrom('queue_pauses')
    .select(PAUSE_COLUMNS)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * Replaces the pauses with exactly these conditions whose span overlaps [startsAt, endsAt) by a
 * new one, in one transaction (product-spec §4).
 */
export async function replacePause(
  { db }: Database,
  accountId: number,
  pause: Omit<PauseRow, 'id'>,
  endsAt: number,
): Promise<{ id: number; replaced: number }> {
  return db.transaction().execute(async (trx) => {
    const removed = await trx
      .deleteFrom('queue_pauses')
      .where('account_id', '=', accountId)
      .where((eb) =>
        eb.and([
          pause.api_user_id === null
            ? eb('api_user_id', 'is', null)
            : eb('api_user_id', '=', pause.api_user_id),
          pause.domain === null ? eb('domain', 'is', null) : eb('domain', '=', pause.domain),
          pause.label_id === null ? eb('label_id', 'is', null) : eb('label_id', '=', pause.label_id),
          eb('starts_at', '<', endsAt),
          eb(eb.fn.coalesce('recover_at', 'expires_at'), '>', pause.starts_at),
        ]),
      )
      .executeTakeFirst();
    const row = await trx
      .insertInto('queue_pauses')
      .values({ account_id: accountId, ...pause })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: Number(row.id), replaced: Number(removed.numDeletedRows) };
  });
}

export async function deletePauses({ db }: Database, accountId: number, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db
    .deleteFrom('queue_pauses')
    .where('account_id', '=', accountId)
    .where('id', 'in', ids)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Pauses without a recover time past their expiry, and pauses whose recover time has passed. */
export async function deleteEndedPauses(
  { db }: Database,
  now: number,
): Promise<
  { account_id: number; api_user_id: number | null; domain: string | null; label_id: number | null }[]
> {
  return db.transaction().execute(async (trx) => {
    const ended = await trx
      .selectFrom('queue_pauses')
      .select(['id', 'account_id', 'api_user_id', 'domain', 'label_id'])
      .where((eb) => eb.or([eb('expires_at', '<=', now), eb('recover_at', '<=', now)]))
      .execute();
    if (ended.length > 0) {
      await trx
        .deleteFrom('queue_pauses')
        .where(
          'id',
          'in',
          ended.map((p) => p.id),
        )
        .execute();
    }
    return ended.map((p) => ({ ...p, account_id: Number(p.account_id) }));
  });
}

/** The messages a queue's conditions select. */
function messagesOf(accountId: number, conditions: Conditions) {
  return (eb: ExpressionBuilder<DB, 'message_recipients'>) => {
    let query = eb.selectFrom('messages').select('messages.id').where('messages.account_id', '=', accountId);
    if (conditions.apiUserId) query = query.where('messages.api_user_id', '=', conditions.apiUserId);
    if (conditions.labelId) query = query.where('messages.label_id', '=', conditions.labelId);
    if (conditions.domain) {
      query = query.where(sql<string>`lower(messages.from_address)`, 'like', `%@${conditions.domain}`);
    }
    return query;
  };
}

/**
 * Held recipients of the account become due (at `dueAt`, by default now): those of the queue
 * `conditions` names, or those held for one of `reasons`. The pipeline asks the policy again on
 * claiming.
 */
export async function releaseHeld(
  { db }: Database,
  accountId: number,
  which: { conditions: Conditions } | { reasons: string[] },
  now: number,
  dueAt = now,
): Promise<number> {
  let query = db
    .updateTable('message_recipients')
    .set({ next_attempt_at: dueAt, updated_at: now })
    .where('account_id', '=', accountId)
    .where('status', '=', 'held');
  query =
    'reasons' in which
      ? query.where('reason', 'in', which.reasons)
      : query.where('message_id', 'in', messagesOf(accountId, which.conditions));
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Statuses a deletion takes off the queue: waiting, waiting for a retry, or held. */
export const DELETABLE_STATUSES = ['requested', 'deferred', 'held'] as const;

export async function deleteQueued(
  { db }: Database,
  accountId: number,
  conditions: Conditions,
  now: number,
): Promise<number> {
  const result = await db
    .updateTable('message_recipients')
    .set({ status: 'deleted', reason: 'deleted from the queue', updated_at: now })
    .where('account_id', '=', accountId)
    .where('status', 'in', [...DELETABLE_STATUSES])
    .where('message_id', 'in', messagesOf(accountId, conditions))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export interface CountRow {
  api_user_id: number | null;
  from_address: string;
  status: string;
  n: number;
}

/**
 * Recipient counts per API_USER, from address and status: of the messages accepted since `since`,
 * and, older than that, of those still unfinished (read through the status index).
 */
export async function countRecipients(
  { db }: Database,
  accountId: number,
  conditions: Conditions,
  since: number,
  unfinished: readonly string[],
): Promise<CountRow[]> {
  const base = () => {
    let query = db
      .selectFrom('message_recipients as r')
      .innerJoin('messages as m', 'm.id', 'r.message_id')
      .select(['m.api_user_id', 'm.from_address', 'r.status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('m.account_id', '=', accountId)
      .where('r.account_id', '=', accountId);
    if (conditions.apiUserId) query = query.where('m.api_user_id', '=', conditions.apiUserId);
    if (conditions.labelId) query = query.where('m.label_id', '=', conditions.labelId);
    if (conditions.domain)
      query = query.where(sql<string>`lower(m.from_address)`, 'like', `%@${conditions.domain}`);
    return query.groupBy(['m.api_user_id', 'm.from_address', 'r.status']);
  };
  const [recent, older] = await Promise.all([
    base().where('m.created_at', '>=', since).execute(),
    base()
      .where('m.created_at', '<', since)
      .where('r.status', 'in', [...unfinished])
      .execute(),
  ]);
  return [...recent, ...older].map((row) => ({
    api_user_id: row.api_user_id === null ? null : Number(row.api_user_id),
    from_address: row.from_address,
    status: row.status,
    n: Number(row.n),
  }));
}

export async function apiUserNames({ db }: Database, accountId: number): Promise<Map<number, string>> {
  const rows = await db
    .selectFrom('api_users')
    .select(['id', 'name'])
    .where('account_id', '=', accountId)
    .execute();
  return new Map(rows.map((r) => [Number(r.id), r.name]));
}

export async function ownsDomain({ db }: Database, accountId: number, name: string): Promise<boolean> {
  const row = await db
    .selectFrom('sending_domains')
    .select('id')
    .where('account_id', '=', accountId)
    .where(sql<string>`lower(name)`, '=', name)
    .executeTakeFirst();
  return row !== undefined;
}
