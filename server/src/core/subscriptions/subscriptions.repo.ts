import type { Database } from '../../db/database.ts';
import { containing } from '../../db/like-pattern.ts';
import type { SubscriptionsTable } from '../../db/subscription-schema.ts';

/**
 * Subscriptions and their sign-ups. Console reads and writes are scoped by account and leave out
 * deleted rows; the public page finds a subscription by its public id alone (deleted ones too,
 * so it can say the subscription is no longer available).
 */
/** A subscription's stored columns (the form's values are SubscriptionValues of @herald/shared). */
export type SubscriptionColumns = Omit<
  SubscriptionsTable,
  'id' | 'account_id' | 'public_id' | 'created_at' | 'updated_at' | 'deleted_at'
>;

export type SubscriptionRow = SubscriptionColumns & {
  id: number;
  account_id: number;
  public_id: string;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
  api_user: string | null;
  list_name: string | null;
  list_prefix: string | null;
};

function withNames({ db }: Database) {
  return db
    .selectFrom('subscriptions as s')
    .leftJoin('api_users as u', (join) =>
      join.onRef('u.id', '=', 's.api_user_id').onRef('u.account_id', '=', 's.account_id'),
    )
    .leftJoin('address_lists as l', (join) =>
      join.onRef('l.id', '=', 's.list_id').onRef('l.account_id', '=', 's.account_id'),
    )
    .select([
      's.id',
      's.account_id',
      's.public_id',
      's.name',
      's.logo_url',
      's.subject',
      's.from_name',
      's.from_address',
      's.api_user_id',
      's.list_id',
      's.confirm',
      's.display_mode',
      's.theme_color',
      's.created_at',
      's.updated_at',
      's.deleted_at',
      'u.name as api_user',
      'l.name as list_name',
      'l.prefix as list_prefix',
    ]);
}

/** A page of the account's subscriptions, newest first; `name` finds part of the name. */
export async function listSubscriptions(
  database: Database,
  accountId: number,
  filter: { name?: string | undefined; offset: number; limit: number },
): Promise<{ rows: SubscriptionRow[]; total: number }> {
  let query = withNames(database).where('s.account_id', '=', accountId).where('s.deleted_at', 'is', null);
  let count = database.db
    .selectFrom('subscriptions as s')
    .where('s.account_id', '=', accountId)
    .where('s.deleted_at', 'is', null);
  if (filter.name) {
    const text = containing(filter.name.toLowerCase());
    query = query.where((eb) => eb(eb.fn('lower', ['s.name']), 'like', text));
    count = count.where((eb) => eb(eb.fn('lower', ['s.name']), 'like', text));
  }
  const [rows, total] = await Promise.all([
    query.orderBy('s.id', 'desc').offset(filter.offset).limit(filter.limit).execute(),
    count.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as SubscriptionRow[], total: Number(total.n) };
}

export async function findSubscription(
  database: Database,
  accountId: number,
  id: number,
): Promise<SubscriptionRow | undefined> {
  return (await withNames(database)
    .where('s.account_id', '=', accountId)
    .where('s.id', '=', id)
    .where('s.deleted_at', 'is', null)
    .executeTakeFirst()) as SubscriptionRow | undefined;
}

/** By the public page's id, deleted or not. */
export async function findByPublicId(
  database: Database,
  publicId: string,
): Promise<SubscriptionRow | undefined> {
  return (await withNames(database).where('s.public_id', '=', publicId).executeTakeFirst()) as
    | SubscriptionRow
    | undefined;
}

/** By its id alone, deleted or not (a sign-up's confirmation link names its subscription so). */
export async function findById(database: Database, id: number): Promise<SubscriptionRow | undefined> {
  return (await withNames(database).where('s.id', '=', id).executeTakeFirst()) as SubscriptionRow | undefined;
}

export async function insertSubscription(
  { db }: Database,
  accountId: number,
  publicId: string,
  values: SubscriptionColumns,
  now: number,
): Promise<number> {
  const row = await db
    .insertInto('subscriptions')
    .values({ account_id: accountId, public_id: publicId, ...values, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateSubscription(
  { db }: Database,
  accountId: number,
  id: number,
  values: SubscriptionColumns,
  now: number,
): Promise<void> {
  await db
    .updateTable('subscriptions')
    .set({ ...values, updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .execute();
}

/** Marks it deleted; false when there was no live one. */
export async function deleteSubscription(
  { db }: Database,
  accountId: number,
  id: number,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('subscriptions')
    .set({ deleted_at: now, updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertSignup(
  { db }: Database,
  signup: {
    subscriptionId: number;
    accountId: number;
    address: string;
    name: string;
    status: 'pending' | 'confirmed';
    ip: string;
    userAgent: string;
  },
  now: number,
): Promise<number> {
  const row = await db
    .insertInto('subscription_signups')
    .values({
      subscription_id: signup.subscriptionId,
      account_id: signup.accountId,
      address: signup.address,
      name: signup.name,
      status: signup.status,
      ip: signup.ip,
      user_agent: signup.userAgent,
      created_at: now,
      confirmed_at: signup.status === 'confirmed' ? now : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function findSignup({ db }: Database, id: number) {
  return db
    .selectFrom('subscription_signups')
    .select(['id', 'subscription_id', 'account_id', 'address', 'name', 'status', 'created_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Pending sign-ups of this address on this subscription made since `since` (the resend throttle). */
export async function countRecentSignups(
  { db }: Database,
  subscriptionId: number,
  address: string,
  since: number,
): Promise<number> {
  const row = await db
    .selectFrom('subscription_signups')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('subscription_id', '=', subscriptionId)
    .where('address', '=', address)
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function markConfirmed({ db }: Database, id: number, now: number): Promise<void> {
  await db
    .updateTable('subscription_signups')
    .set({ status: 'confirmed', confirmed_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}
