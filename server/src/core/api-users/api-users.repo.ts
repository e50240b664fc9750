import type { Database } from '../../db/database.ts';
import type { ApiUsersTable } from '../../db/sending-schema.ts';

/** API_USERs of one account with their domain and label; every query is scoped to the account. */
function apiUsers({ db }: Database, accountId: number) {
  return db
    .selectFrom('api_users')
    .leftJoin('sending_domains', (join) =>
      join
        .onRef('sending_domains.id', '=', 'api_users.domain_id')
        .onRef('sending_domains.account_id', '=', 'api_users.account_id'),
    )
    .leftJoin('labels', (join) =>
      join
        .onRef('labels.id', '=', 'api_users.label_id')
        .onRef('labels.account_id', '=', 'api_users.account_id'),
    )
    .select([
      'api_users.id',
      'api_users.name',
      'api_users.email_type',
      'api_users.c_type',
      'api_users.domain_id',
      'api_users.label_id',
      'api_users.open_tracking',
      'api_users.click_tracking',
      'api_users.unsubscribe_tracking',
      'api_users.created_at',
      'api_users.updated_at',
      'sending_domains.name as domain_name',
      'sending_domains.status as domain_status',
      'labels.name as label_name',
    ])
    .where('api_users.account_id', '=', accountId);
}

export type ApiUserRow = NonNullable<Awaited<ReturnType<typeof findApiUser>>>;

export async function listApiUsers(database: Database, accountId: number) {
  return apiUsers(database, accountId).orderBy('api_users.id').execute();
}

export async function findApiUser(database: Database, accountId: number, id: number) {
  return apiUsers(database, accountId).where('api_users.id', '=', id).executeTakeFirst();
}

/** Names are unique across the platform: a client authenticates with the name alone. */
export async function isNameTaken({ db }: Database, name: string): Promise<boolean> {
  const row = await db.selectFrom('api_users').select('id').where('name', '=', name).executeTakeFirst();
  return row !== undefined;
}

export async function countApiUsers({ db }: Database, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('api_users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Serialises creations in one account so two racing for the last slot are counted in turn. */
export async function lockAccount({ db }: Database, accountId: number, now: number): Promise<void> {
  await db.updateTable('accounts').set({ updated_at: now }).where('id', '=', accountId).execute();
}

export async function findPlan({ db }: Database, accountId: number): Promise<'free' | 'paid'> {
  const row = await db.selectFrom('accounts').select('plan').where('id', '=', accountId).executeTakeFirst();
  return row?.plan ?? 'free';
}

/** The account's sending domain, by id or by name (SendCloud's `domainName`). */
export async function findDomain({ db }: Database, accountId: number, by: { id: number } | { name: string }) {
  let q = db
    .selectFrom('sending_domains')
    .select(['id', 'name', 'status'])
    .where('account_id', '=', accountId);
  q = 'id' in by ? q.where('id', '=', by.id) : q.where('name', 'in', [by.name, by.name.toLowerCase()]);
  return q.executeTakeFirst();
}

/** The domains an API_USER may be bound to: usable or verified (product-spec §4). */
export async function listBindableDomains({ db }: Database, accountId: number) {
  return db
    .selectFrom('sending_domains')
    .select(['id', 'name', 'status'])
    .where('account_id', '=', accountId)
    .where('status', 'in', ['usable', 'verified'])
    .$narrowType<{ status: 'usable' | 'verified' }>()
    .orderBy('name')
    .execute();
}

export async function labelExists({ db }: Database, accountId: number, labelId: number): Promise<boolean> {
  const row = await db
    .selectFrom('labels')
    .select('id')
    .where('account_id', '=', accountId)
    .where('channel', '=', 'email')
    .where('id', '=', labelId)
    .executeTakeFirst();
  return row !== undefined;
}

export interface ApiUserValues {
  domainId: number;
  labelId: number | null;
  openTracking: boolean;
  clickTracking: boolean;
  unsubscribeTracking: boolean;
}

const columns = (v: ApiUserValues) => ({
  domain_id: v.domainId,
  label_id: v.labelId,
  open_tracking: v.openTracking ? 1 : 0,
  click_tracking: v.clickTracking ? 1 : 0,
  unsubscribe_tracking: v.unsubscribeTracking ? 1 : 0,
});

export async function insertApiUser(
  { db }: Database,
  accountId: number,
  values: ApiUserValues & { name: string; emailType: ApiUsersTable['email_type'] },
  now: number,
): Promise<number> {
  const row = await db
    .insertInto('api_users')
    .values({
      account_id: accountId,
      name: values.name,
      email_type: values.emailType,
      c_type: 'normal',
      ...columns(values),
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateApiUser(
  { db }: Database,
  accountId: number,
  id: number,
  values: ApiUserValues,
  now: number,
): Promise<void> {
  await db
    .updateTable('api_users')
    .set({ ...columns(values), updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .execute();
}

/** Its keys go with it (the foreign key cascades); a default-sender slot it held is cleared. */
export async function deleteApiUser({ db }: Database, accountId: number, id: number): Promise<boolean> {
  await db
    .updateTable('api_user_senders')
    .set({ trigger_api_user_id: null })
    .where('account_id', '=', accountId)
    .where('trigger_api_user_id', '=', id)
    .execute();
  await db
    .updateTable('api_user_senders')
    .set({ batch_api_user_id: null })
    .where('account_id', '=', accountId)
    .where('batch_api_user_id', '=', id)
    .execute();
  const result = await db
    .deleteFrom('api_users')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function findSenders({ db }: Database, accountId: number) {
  const row = await db
    .selectFrom('api_user_senders')
    .select(['trigger_api_user_id', 'batch_api_user_id'])
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return {
    trigger: row?.trigger_api_user_id == null ? null : Number(row.trigger_api_user_id),
    batch: row?.batch_api_user_id == null ? null : Number(row.batch_api_user_id),
  };
}

export async function saveSenders(
  { db }: Database,
  accountId: number,
  senders: { trigger: number | null; batch: number | null },
  now: number,
): Promise<void> {
  const values = { trigger_api_user_id: senders.trigger, batch_api_user_id: senders.batch, updated_at: now };
  await db
    .insertInto('api_user_senders')
    .values({ account_id: accountId, ...values })
    .onConflict((oc) => oc.column('account_id').doUpdateSet(values))
    .execute();
}

/** The ids of the account's API_USERs with these names (unknown names match nothing). */
export async function apiUserIdsByName(
  { db }: Database,
  accountId: number,
  names: string[],
): Promise<number[]> {
  if (names.length === 0) return [];
  const rows = await db
    .selectFrom('api_users')
    .select('id')
    .where('account_id', '=', accountId)
    .where('name', 'in', names)
    .execute();
  return rows.map((r) => Number(r.id));
}
