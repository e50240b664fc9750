import type { Selectable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { SmsGatewayUsersTable } from '../../db/sms-schema.ts';

/** The SQL of gateway users (CMPP_USERs, SMPP system ids) and their cap (migration 0042). */
export type GatewayUserRow = Selectable<SmsGatewayUsersTable>;

export function listUsers({ db }: Database, accountId: number): Promise<GatewayUserRow[]> {
  return db
    .selectFrom('sms_gateway_users')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
}

export function findUser(
  { db }: Database,
  accountId: number,
  id: number,
): Promise<GatewayUserRow | undefined> {
  return db
    .selectFrom('sms_gateway_users')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The user a connection logs in as, of any account. */
export function findByLogin(
  { db }: Database,
  protocol: 'cmpp' | 'smpp',
  name: string,
): Promise<GatewayUserRow | undefined> {
  return db
    .selectFrom('sms_gateway_users')
    .selectAll()
    .where('protocol', '=', protocol)
    .where('name', '=', name)
    .executeTakeFirst();
}

export async function isNameTaken(
  { db }: Database,
  protocol: 'cmpp' | 'smpp',
  name: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('sms_gateway_users')
    .select('id')
    .where('protocol', '=', protocol)
    .where('name', '=', name)
    .executeTakeFirst();
  return row !== undefined;
}

export async function countUsers({ db }: Database, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('sms_gateway_users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface GatewayUserWrite {
  protocol: 'cmpp' | 'smpp';
  name: string;
  secretSealed: string;
  secretHint: string;
  allowedIps: string[];
  window: number;
  perSecond: number;
}

export async function insertUser(
  { db }: Database,
  accountId: number,
  values: GatewayUserWrite,
  now: number,
): Promise<number> {
  const row = await db
    .insertInto('sms_gateway_users')
    .values({
      account_id: accountId,
      protocol: values.protocol,
      name: values.name,
      secret_sealed: values.secretSealed,
      secret_hint: values.secretHint,
      allowed_ips: values.allowedIps.join(','),
      window_size: values.window,
      per_second: values.perSecond,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateSettings(
  { db }: Database,
  accountId: number,
  id: number,
  values: Pick<GatewayUserWrite, 'allowedIps' | 'window' | 'perSecond'>,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('sms_gateway_users')
    .set({
      allowed_ips: values.allowedIps.join(','),
      window_size: values.window,
      per_second: values.perSecond,
      updated_at: now,
    })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function updateSecret(
  { db }: Database,
  accountId: number,
  id: number,
  sealed: string,
  hint: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('sms_gateway_users')
    .set({ secret_sealed: sealed, secret_hint: hint, updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Deletes the user and the reports still owed to it. */
export async function deleteUser({ db }: Database, accountId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('sms_gateway_users')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (result.numDeletedRows === 0n) return false;
  await db
    .deleteFrom('sms_gateway_receipts')
    .where('account_id', '=', accountId)
    .where('gateway_user_id', '=', id)
    .execute();
  return true;
}

export async function findCap({ db }: Database, accountId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('sms_gateway_caps')
    .select('max_users')
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row ? Number(row.max_users) : undefined;
}

export async function saveCap({ db }: Database, accountId: number, max: number, now: number): Promise<void> {
  await db
    .insertInto('sms_gateway_caps')
    .values({ account_id: accountId, max_users: max, updated_at: now })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ max_users: max, updated_at: now }))
    .execute();
}

export async function accountExists({ db }: Database, accountId: number): Promise<boolean> {
  const row = await db.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst();
  return row !== undefined;
}
