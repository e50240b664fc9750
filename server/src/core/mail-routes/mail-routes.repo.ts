import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';

/** The SQL of receive routes and their mailbox codes. */

const COLUMNS = [
  'id',
  'account_id',
  'domain',
  'match',
  'expression',
  'target',
  'url',
  'email',
  'webhook_id',
  'created_at',
] as const;

export type RouteRow = Awaited<ReturnType<typeof listRoutes>>[number];

export function listRoutes({ db }: Database, accountId: number) {
  return db
    .selectFrom('mail_routes')
    .select(COLUMNS)
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
}

export function routesOfDomain({ db }: Database, domain: string) {
  return db.selectFrom('mail_routes').select(COLUMNS).where('domain', '=', domain).execute();
}

export function findRoute({ db }: Database, accountId: number, id: number) {
  return db
    .selectFrom('mail_routes')
    .select(COLUMNS)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function countRoutes({ db }: Database, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('mail_routes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Whether the domain is one of the account's sending domains that passed (its MX points here). */
export async function ownsUsableDomain(
  { db }: Database,
  accountId: number,
  domain: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('sending_domains')
    .select('id')
    .where('account_id', '=', accountId)
    .where('name', '=', domain)
    .where('status', 'in', ['usable', 'verified'])
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertRoute(
  trx: Kysely<DB>,
  values: {
    account_id: number;
    domain: string;
    match: string;
    expression: string;
    target: string;
    url: string | null;
    email: string | null;
    created_at: number;
    updated_at: number;
  },
): Promise<number> {
  const row = await trx.insertInto('mail_routes').values(values).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function setRouteWebhook(trx: Kysely<DB>, id: number, webhookId: number): Promise<void> {
  await trx.updateTable('mail_routes').set({ webhook_id: webhookId }).where('id', '=', id).execute();
}

export async function deleteRoute(trx: Kysely<DB>, accountId: number, id: number): Promise<void> {
  await trx.deleteFrom('mail_routes').where('account_id', '=', accountId).where('id', '=', id).execute();
}

export function findCode({ db }: Database, accountId: number, email: string) {
  return db
    .selectFrom('mail_route_codes')
    .select(['code_hash', 'expires_at', 'sent_at'])
    .where('account_id', '=', accountId)
    .where('email', '=', email)
    .executeTakeFirst();
}

export async function saveCode(
  { db }: Database,
  row: { account_id: number; email: string; code_hash: string; expires_at: number; sent_at: number },
): Promise<void> {
  const { account_id, email, ...values } = row;
  await db
    .insertInto('mail_route_codes')
    .values(row)
    .onConflict((oc) => oc.columns(['account_id', 'email']).doUpdateSet(values))
    .execute();
}

export async function deleteCode({ db }: Database, accountId: number, email: string): Promise<void> {
  await db
    .deleteFrom('mail_route_codes')
    .where('account_id', '=', accountId)
    .where('email', '=', email)
    .execute();
}
