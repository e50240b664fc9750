import type { Selectable, Updateable } from 'kysely';
import type { Database } from '../../db/database.ts';
import { containing } from '../../db/like-pattern.ts';
import type { SendingDomainsTable } from '../../db/sending-schema.ts';

/** SQL of sending domains. Every function but the periodic re-check's takes the account id first. */
export type DomainRow = Selectable<SendingDomainsTable>;
export type DomainPatch = Updateable<SendingDomainsTable>;

export async function listDomains(
  { db }: Database,
  accountId: number,
  options: { offset?: number; limit?: number; names?: readonly string[]; statuses?: readonly string[] } = {},
): Promise<DomainRow[]> {
  let query = db.selectFrom('sending_domains').selectAll().where('account_id', '=', accountId);
  if (options.names && options.names.length > 0) query = query.where('name', 'in', [...options.names]);
  if (options.statuses) query = query.where('status', 'in', [...options.statuses] as DomainRow['status'][]);
  query = query.orderBy('created_at').orderBy('id');
  if (options.limit !== undefined) query = query.limit(options.limit).offset(options.offset ?? 0);
  return query.execute();
}

export async function countDomains({ db }: Database, accountId: number, name?: string): Promise<number> {
  let query = db
    .selectFrom('sending_domains')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId);
  if (name) query = query.where('name', 'like', containing(name));
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function searchDomains(
  { db }: Database,
  accountId: number,
  name: string | undefined,
  offset: number,
  limit: number,
): Promise<DomainRow[]> {
  let query = db.selectFrom('sending_domains').selectAll().where('account_id', '=', accountId);
  if (name) query = query.where('name', 'like', containing(name));
  return query.orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute();
}

export async function findDomain(
  { db }: Database,
  accountId: number,
  id: number,
): Promise<DomainRow | undefined> {
  return db
    .selectFrom('sending_domains')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findDomainByName(
  { db }: Database,
  accountId: number,
  name: string,
): Promise<DomainRow | undefined> {
  return db
    .selectFrom('sending_domains')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('name', '=', name)
    .executeTakeFirst();
}

export async function insertDomain(
  { db }: Database,
  accountId: number,
  values: { name: string; selector: string; publicKey: string; privateKeySealed: string; verifyKey: string },
  now: number,
): Promise<number> {
  const row = await db
    .insertInto('sending_domains')
    .values({
      account_id: accountId,
      name: values.name,
      dkim_selector: values.selector,
      dkim_public_key: values.publicKey,
      dkim_private_key_sealed: values.privateKeySealed,
      verify_key: values.verifyKey,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateDomain({ db }: Database, accountId: number, id: number, patch: DomainPatch) {
  await db
    .updateTable('sending_domains')
    .set(patch)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .execute();
}

export async function deleteDomain({ db }: Database, accountId: number, id: number): Promise<void> {
  await db.deleteFrom('sending_domains').where('account_id', '=', accountId).where('id', '=', id).execute();
}

/** Names of the API_USERs that send from the domain. */
export async function boundApiUsers(
  { db }: Database,
  accountId: number,
  domainId: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('api_users')
    .select('name')
    .where('account_id', '=', accountId)
    .where('domain_id', '=', domainId)
    .orderBy('name')
    .execute();
  return rows.map((r) => r.name);
}

/** Takes the account row's write lock for the transaction, so two adds race for the last slot in turn. */
export async function lockAccount({ db }: Database, accountId: number, now: number): Promise<void> {
  await db.updateTable('accounts').set({ updated_at: now }).where('id', '=', accountId).execute();
}

/**
 * Domains due for a DNS re-check, never-checked first, then the longest unchecked: a domain that
 * still fails is due after `freshMs` while it was added or renamed within `freshForMs`, after
 * `staleMs` later on; a verified domain after `verifiedMs`.
 */
export async function dueDomains(
  { db }: Database,
  now: number,
  pace: { freshMs: number; freshForMs: number; staleMs: number; verifiedMs: number },
  limit: number,
): Promise<DomainRow[]> {
  return db
    .selectFrom('sending_domains')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('checked_at', 'is', null),
        eb.and([
          eb('status', '!=', 'verified'),
          eb('updated_at', '>=', now - pace.freshForMs),
          eb('checked_at', '<', now - pace.freshMs),
        ]),
        eb.and([eb('status', '!=', 'verified'), eb('checked_at', '<', now - pace.staleMs)]),
        eb.and([eb('status', '=', 'verified'), eb('checked_at', '<', now - pace.verifiedMs)]),
      ]),
    )
    .orderBy((eb) => eb.fn.coalesce('checked_at', eb.lit(0)))
    .orderBy('id')
    .limit(limit)
    .execute();
}
