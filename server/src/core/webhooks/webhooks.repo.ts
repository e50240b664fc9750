import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import type { WebhooksTable } from '../../db/webhook-schema.ts';

/** The SQL of webhook configurations. Every query names the account. */
export type WebhookRow = Selectable<WebhooksTable> & { api_user_name: string | null };

const selectWebhooks = (db: Kysely<DB>) =>
  db
    .selectFrom('webhooks as w')
    .leftJoin('api_users as a', (join) =>
      join.onRef('a.id', '=', 'w.api_user_id').onRef('a.account_id', '=', 'w.account_id'),
    )
    .selectAll('w')
    .select('a.name as api_user_name');

/**
 * Email webhooks (`mail`), SMSHooks (`sms`) and receive routes' pushes (`route`, one per URL route)
 * share the table; every query names its channel.
 */
export type HookChannel = 'mail' | 'sms' | 'route';

export function list(
  database: Database,
  accountId: number,
  channel: HookChannel = 'mail',
): Promise<WebhookRow[]> {
  return selectWebhooks(database.db)
    .where('w.account_id', '=', accountId)
    .where('w.channel', '=', channel)
    .orderBy('w.id')
    .execute();
}

export function find(
  database: Database,
  accountId: number,
  id: number,
  channel: HookChannel = 'mail',
): Promise<WebhookRow | undefined> {
  return selectWebhooks(database.db)
    .where('w.account_id', '=', accountId)
    .where('w.id', '=', id)
    .where('w.channel', '=', channel)
    .executeTakeFirst();
}

export async function count(
  database: Database,
  accountId: number,
  channel: HookChannel = 'mail',
): Promise<number> {
  const row = await database.db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('account_id', '=', accountId)
    .where('channel', '=', channel)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findByTarget(
  database: Database,
  accountId: number,
  apiUserId: number,
  url: string,
  channel: HookChannel = 'mail',
): Promise<number | null> {
  const row = await database.db
    .selectFrom('webhooks')
    .select('id')
    .where('account_id', '=', accountId)
    .where('channel', '=', channel)
    .where('api_user_id', '=', apiUserId)
    .where('url', '=', url)
    .executeTakeFirst();
  return row ? Number(row.id) : null;
}

export interface WebhookValues {
  url: string;
  events: string;
  api_user_id: number;
  app_key_sealed: string | null;
}

export async function insert(
  database: Database,
  accountId: number,
  values: WebhookValues,
  now: number,
  channel: HookChannel = 'mail',
): Promise<number> {
  const row = await database.db
    .insertInto('webhooks')
    .values({ account_id: accountId, ...values, channel, status: 'normal', created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function update(
  database: Database,
  accountId: number,
  id: number,
  values: Partial<WebhookValues>,
  now: number,
): Promise<void> {
  await database.db
    .updateTable('webhooks')
    .set({ ...values, updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .execute();
}

/** Back to normal: the failure streak is forgotten, so the seven days start afresh. */
export async function restore(database: Database, accountId: number, id: number, now: number): Promise<void> {
  await database.db
    .updateTable('webhooks')
    .set({ status: 'normal', failing_since: null, updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .execute();
}

/** Deletes a webhook with its queue and log. */
export async function remove(database: Database, accountId: number, id: number): Promise<void> {
  await database.db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('webhook_attempts')
      .where('account_id', '=', accountId)
      .where('webhook_id', '=', id)
      .execute();
    await trx
      .deleteFrom('webhook_deliveries')
      .where('account_id', '=', accountId)
      .where('webhook_id', '=', id)
      .execute();
    await trx.deleteFrom('webhooks').where('account_id', '=', accountId).where('id', '=', id).execute();
  });
}

/** The API_USER of the account with this id or name, for targets. */
export async function apiUserOf(
  database: Database,
  accountId: number,
  by: { id: number } | { name: string },
): Promise<{ id: number; name: string } | undefined> {
  let query = database.db.selectFrom('api_users').select(['id', 'name']).where('account_id', '=', accountId);
  query = 'id' in by ? query.where('id', '=', by.id) : query.where('name', '=', by.name);
  const row = await query.executeTakeFirst();
  return row ? { id: Number(row.id), name: row.name } : undefined;
}

/** What the dispatcher needs of a webhook. */
export interface DispatchHookRow {
  id: number;
  account_id: number;
  url: string;
  events: string;
  api_user_id: number;
  status: string;
  app_key_sealed: string | null;
}

const DISPATCH_COLUMNS = [
  'id',
  'account_id',
  'url',
  'events',
  'api_user_id',
  'status',
  'app_key_sealed',
] as const;

/** The normal webhooks of these accounts (fan-out, inside its transaction). */
export async function normalHooksOf(
  trx: Kysely<DB>,
  accountIds: number[],
  channel: HookChannel = 'mail',
): Promise<DispatchHookRow[]> {
  return (await trx
    .selectFrom('webhooks')
    .select(DISPATCH_COLUMNS)
    .where('account_id', 'in', accountIds)
    .where('channel', '=', channel)
    .where('status', '=', 'normal')
    .execute()) as DispatchHookRow[];
}

/** The webhooks of these ids, whatever their status (push). */
export async function hooksByIds(database: Database, ids: number[]): Promise<DispatchHookRow[]> {
  return (await database.db
    .selectFrom('webhooks')
    .select(DISPATCH_COLUMNS)
    .where('id', 'in', ids)
    .execute()) as DispatchHookRow[];
}
