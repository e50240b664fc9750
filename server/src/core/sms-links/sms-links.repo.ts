import { sql } from 'kysely';
import { beijingDayOf } from '../../db/beijing-day.ts';
import type { Database } from '../../db/database.ts';

/** The SQL of SMS short links: the setting, id blocks, the links and their clicks. */

export function findSetting({ db }: Database, accountId: number) {
  return db
    .selectFrom('sms_link_settings')
    .select('enabled')
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

export async function saveSetting({ db }: Database, accountId: number, enabled: boolean, now: number) {
  const values = { enabled: enabled ? 1 : 0, updated_at: now };
  await db
    .insertInto('sms_link_settings')
    .values({ account_id: accountId, ...values })
    .onConflict((oc) => oc.column('account_id').doUpdateSet(values))
    .execute();
}

/** Reserves `size` link ids; answers the first. Atomic on both backends (one UPDATE). */
export async function reserveIds({ db }: Database, size: number): Promise<number> {
  const row = await db
    .updateTable('sms_link_id_blocks')
    .set({ next_id: sql`next_id + ${size}` })
    .where('id', '=', 1)
    .returning('next_id')
    .executeTakeFirstOrThrow();
  return Number(row.next_id) - size;
}

export function findLink({ db }: Database, id: number) {
  return db
    .selectFrom('sms_short_links')
    .select(['id', 'account_id', 'phone', 'url', 'created_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function insertClick(
  { db }: Database,
  values: {
    link_id: number;
    account_id: number;
    phone: string;
    url: string;
    machine: number;
    user_agent: string;
    at: number;
  },
): Promise<void> {
  await db.insertInto('sms_link_clicks').values(values).execute();
}

export async function listClicks(
  { db }: Database,
  accountId: number,
  filter: { phone?: string | undefined; from: number; to: number; offset: number; limit: number },
) {
  let query = db
    .selectFrom('sms_link_clicks as c')
    .innerJoin('sms_short_links as l', 'l.id', 'c.link_id')
    .where('c.account_id', '=', accountId)
    .where('c.at', '>=', filter.from)
    .where('c.at', '<', filter.to);
  if (filter.phone) query = query.where('c.phone', '=', filter.phone);
  const [rows, count] = await Promise.all([
    query
      .select(['c.id', 'c.phone', 'c.url', 'c.machine', 'c.at', 'l.sms_id'])
      .orderBy('c.at', 'desc')
      .orderBy('c.id', 'desc')
      .offset(filter.offset)
      .limit(filter.limit)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ]);
  return { rows, total: Number(count?.n ?? 0) };
}

/** Per Beijing day (days since the epoch): people's clicks, the numbers that clicked, machine clicks. */
export function clicksPerDay({ db }: Database, accountId: number, from: number, to: number) {
  const dayOf = beijingDayOf('at');
  return db
    .selectFrom('sms_link_clicks')
    .select([
      dayOf.as('day'),
      sql<number>`SUM(CASE WHEN machine = 0 THEN 1 ELSE 0 END)`.as('clicks'),
      sql<number>`COUNT(DISTINCT CASE WHEN machine = 0 THEN phone END)`.as('phones'),
      sql<number>`SUM(machine)`.as('machine'),
    ])
    .where('account_id', '=', accountId)
    .where('at', '>=', from)
    .where('at', '<', to)
    .groupBy(dayOf)
    .orderBy(dayOf)
    .execute();
}
