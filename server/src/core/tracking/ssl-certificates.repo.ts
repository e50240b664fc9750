import type { Insertable, Kysely, Selectable } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { SslCertificatesTable } from '../../db/tracking-schema.ts';

/** The SQL of tracking domains' HTTPS certificates. */
export type SslCertificateRow = Selectable<SslCertificatesTable>;

export function listSslCertificates(db: Kysely<DB>, accountId: number): Promise<SslCertificateRow[]> {
  return db
    .selectFrom('ssl_certificates')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
}

/** Adds the domain's certificate, or replaces the account's one for it (a renewal). */
export async function upsertSslCertificate(
  db: Kysely<DB>,
  values: Insertable<SslCertificatesTable>,
): Promise<void> {
  await db
    .insertInto('ssl_certificates')
    .values(values)
    .onConflict((oc) =>
      oc
        .column('domain')
        .doUpdateSet({
          certificate: values.certificate,
          private_key_sealed: values.private_key_sealed,
          subject: values.subject,
          issuer: values.issuer,
          fingerprint: values.fingerprint,
          valid_from: values.valid_from,
          valid_to: values.valid_to,
          updated_at: values.updated_at,
        })
        .where('ssl_certificates.account_id', '=', values.account_id),
    )
    .execute();
}

export function getSslCertificateByDomain(
  db: Kysely<DB>,
  accountId: number,
  domain: string,
): Promise<SslCertificateRow> {
  return db
    .selectFrom('ssl_certificates')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('domain', '=', domain)
    .executeTakeFirstOrThrow();
}

export function findSslCertificate(db: Kysely<DB>, accountId: number, id: number) {
  return db
    .selectFrom('ssl_certificates')
    .select(['id', 'domain'])
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function deleteSslCertificateById(db: Kysely<DB>, id: number): Promise<void> {
  await db.deleteFrom('ssl_certificates').where('id', '=', id).execute();
}

/** Deletes the account's certificate of a domain (the domain was renamed or removed). */
export async function deleteSslCertificateOfDomain(
  db: Kysely<DB>,
  accountId: number,
  domain: string,
): Promise<void> {
  await db
    .deleteFrom('ssl_certificates')
    .where('account_id', '=', accountId)
    .where('domain', '=', domain)
    .execute();
}

/** What the TLS listener needs of a name's certificate, whatever the account. */
export function findServingCertificate(db: Kysely<DB>, domain: string) {
  return db
    .selectFrom('ssl_certificates')
    .select(['certificate', 'private_key_sealed', 'valid_to'])
    .where('domain', '=', domain)
    .executeTakeFirst();
}
