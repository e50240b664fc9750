import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { TrackingDomainsTable } from '../../db/tracking-schema.ts';

/** The SQL of tracking domains; every query takes the account first. */
export type TrackingDomainRow = Selectable<TrackingDomainsTable> & { cert_valid_to: number | null };

function withCertificate(db: Kysely<DB>) {
  return db
    .selectFrom('tracking_domains as d')
    .leftJoin('ssl_certificates as c', 'c.domain', 'd.name')
    .selectAll('d')
    .select('c.valid_to as cert_valid_to');
}

export function listTrackingDomains(db: Kysely<DB>, accountId: number): Promise<TrackingDomainRow[]> {
  return withCertificate(db).where('d.account_id', '=', accountId).orderBy('d.id').execute();
}

export function findTrackingDomain(
  db: Kysely<DB>,
  accountId: number,
  id: number,
): Promise<TrackingDomainRow | undefined> {
  return withCertificate(db).where('d.account_id', '=', accountId).where('d.id', '=', id).executeTakeFirst();
}

export async function countTrackingDomains(db: Kysely<DB>, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('tracking_domains')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertTrackingDomain(
  db: Kysely<DB>,
  values: Insertable<TrackingDomainsTable>,
): Promise<number> {
  const row = await db
    .insertInto('tracking_domains')
    .values(values)
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateTrackingDomain(
  db: Kysely<DB>,
  accountId: number,
  id: number,
  values: Updateable<TrackingDomainsTable>,
): Promise<void> {
  await db
    .updateTable('tracking_domains')
    .set(values)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .execute();
}

export async function deleteTrackingDomain(db: Kysely<DB>, accountId: number, id: number): Promise<void> {
  await db.deleteFrom('tracking_domains').where('account_id', '=', accountId).where('id', '=', id).execute();
}

/** Makes `id` the account's one default tracking domain. */
export async function setDefaultTrackingDomain(db: Kysely<DB>, accountId: number, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('tracking_domains')
      .set({ is_default: 0 })
      .where('account_id', '=', accountId)
      .where('id', '!=', id)
      .execute();
    await trx
      .updateTable('tracking_domains')
      .set({ is_default: 1 })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .execute();
  });
}

/** The verified default tracking domain of each of these accounts, with its certificate valid after `now`. */
export function defaultVerifiedDomains(db: Kysely<DB>, accountIds: number[], now: number) {
  return db
    .selectFrom('tracking_domains as d')
    .leftJoin('ssl_certificates as c', (j) => j.onRef('c.domain', '=', 'd.name').on('c.valid_to', '>', now))
    .select(['d.account_id', 'd.name', 'd.open_enabled', 'd.click_enabled', 'c.id as cert_id'])
    .where('d.account_id', 'in', accountIds)
    .where('d.is_default', '=', 1)
    .where('d.status', '=', 'verified')
    .execute();
}
