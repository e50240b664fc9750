import type { Insertable, Updateable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { SmsCarriersTable, SmsRoutesTable } from '../../db/sms-schema.ts';

/** The SQL of carrier connections and their routes. */

export function enabledCarriers({ db }: Database) {
  return db.selectFrom('sms_carriers').selectAll().where('enabled', '=', 1).execute();
}

export function allRoutes({ db }: Database) {
  return db.selectFrom('sms_routes').selectAll().execute();
}

/** Inserts a carrier, or updates the one of the same name. */
export async function upsertCarrier(
  { db }: Database,
  values: Insertable<SmsCarriersTable>,
  update: Updateable<SmsCarriersTable>,
): Promise<void> {
  await db
    .insertInto('sms_carriers')
    .values(values)
    .onConflict((oc) => oc.column('name').doUpdateSet(update))
    .execute();
}

export async function updateCarrier({ db }: Database, name: string, values: Updateable<SmsCarriersTable>) {
  await db.updateTable('sms_carriers').set(values).where('name', '=', name).execute();
}

export async function deleteCarrier({ db }: Database, id: number): Promise<void> {
  await db.deleteFrom('sms_carriers').where('id', '=', id).execute();
}

export async function insertRoute({ db }: Database, values: Insertable<SmsRoutesTable>): Promise<void> {
  await db.insertInto('sms_routes').values(values).execute();
}

/** Deletes one route of the carrier; answers whether it was there. */
export async function deleteRoute({ db }: Database, carrierId: number, routeId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('sms_routes')
    .where('carrier_id', '=', carrierId)
    .where('id', '=', routeId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function deleteRoutes({ db }: Database, carrierId: number, country: string): Promise<void> {
  await db
    .deleteFrom('sms_routes')
    .where('carrier_id', '=', carrierId)
    .where('country', '=', country)
    .execute();
}

export function carrierNames({ db }: Database) {
  return db.selectFrom('sms_carriers').select('name').orderBy('id').execute();
}

export function findCarrier({ db }: Database, name: string) {
  return db.selectFrom('sms_carriers').selectAll().where('name', '=', name).executeTakeFirst();
}

export function routesOf({ db }: Database, carrierId: number) {
  return db
    .selectFrom('sms_routes')
    .selectAll()
    .where('carrier_id', '=', carrierId)
    .orderBy('priority')
    .orderBy('id')
    .execute();
}
