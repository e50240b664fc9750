import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { takeSmsEventOrder } from '../../db/sms-event-log.ts';
import type { SmsPauseStatus } from '../../db/sms-schema.ts';

/** The SQL of anti-bombing template pauses: the guard run while accepting, and the records. */

/** `due_at` of a held SMS: never due, until its pause is continued. */
export const PAUSED_DUE_AT = 8_640_000_000_000_000;
const MINUTE = 60_000;
/** Per-minute counts older than this are no use to a window of at most an hour. */
const COUNTS_KEPT_MS = 2 * 60 * MINUTE;

/** One accepted call's SMS of a guarded template. */
export interface GuardedWrite {
  accountId: number;
  templateId: number;
  msgType: number;
  windowMs: number;
  max: number;
  count: number;
}

/**
 * Inside the transaction that accepts the calls: for each call of a guarded template, whether its
 * SMS are held, and by which pause (its id, or null to send them). A template already paused
 * holds every new call; otherwise the call that would take the template over its maximum within
 * the window opens the pause. The window starts no earlier than the minute after the template's
 * last handled pause (continued or cancelled), so a handled burst does not pause it again.
 * Calls are taken in order, so the maximum itself still goes out.
 */
export async function guardTemplates(
  { db }: Database,
  writes: GuardedWrite[],
  now: number,
): Promise<(number | null)[]> {
  const held: (number | null)[] = writes.map(() => null);
  const byTemplate = new Map<number, number[]>();
  for (const [i, w] of writes.entries()) {
    const list = byTemplate.get(w.templateId) ?? [];
    list.push(i);
    byTemplate.set(w.templateId, list);
  }
  const minute = Math.floor(now / MINUTE);
  for (const [templateId, indexes] of byTemplate) {
    const first = writes[indexes[0] as number] as GuardedWrite;
    let pauseId = await openPauseOf(db, templateId);
    let total = 0;
    let added = 0;
    if (pauseId === null) {
      const handled = await db
        .selectFrom('sms_template_pauses')
        .select((eb) => eb.fn.max('handled_at').as('at'))
        .where('template_id', '=', templateId)
        .executeTakeFirst();
      const from = Math.max(
        Math.floor((now - first.windowMs) / MINUTE) + 1,
        handled?.at ? Math.floor(Number(handled.at) / MINUTE) + 1 : 0,
      );
      const counted = await db
        .selectFrom('sms_template_counts')
        .select((eb) => eb.fn.sum<number>('n').as('n'))
        .where('template_id', '=', templateId)
        .where('minute', '>=', from)
        .executeTakeFirst();
      total = Number(counted?.n ?? 0);
    }
    for (const i of indexes) {
      const w = writes[i] as GuardedWrite;
      added += w.count;
      if (pauseId === null && total + w.count <= w.max) {
        total += w.count;
        continue;
      }
      pauseId ??= await openPause(db, w, now);
      // Fenced by the status: a pause closed meanwhile (its row locked by the closing
      // transaction on PostgreSQL, re-read here once that commits) holds nothing more.
      const counted = await db
        .updateTable('sms_template_pauses')
        .set({ paused_count: sql`paused_count + ${w.count}`, last_request_at: now })
        .where('id', '=', pauseId)
        .where('status', '=', 'paused')
        .executeTakeFirst();
      if (Number(counted.numUpdatedRows) > 0) held[i] = pauseId;
      else pauseId = null;
    }
    await db
      .insertInto('sms_template_counts')
      .values({ template_id: templateId, minute, n: added })
      .onConflict((oc) =>
        oc.columns(['template_id', 'minute']).doUpdateSet({ n: sql`sms_template_counts.n + ${added}` }),
      )
      .execute();
  }
  return held;
}

async function openPauseOf(db: Database['db'], templateId: number): Promise<number | null> {
  const row = await db
    .selectFrom('sms_template_pauses')
    .select('id')
    .where('template_id', '=', templateId)
    .where('status', '=', 'paused')
    .executeTakeFirst();
  return row ? Number(row.id) : null;
}

/** Opens the template's pause; another process may have opened it a moment ago: then that one. */
async function openPause(db: Database['db'], w: GuardedWrite, now: number): Promise<number> {
  await db
    .insertInto('sms_template_pauses')
    .values({
      account_id: w.accountId,
      template_id: w.templateId,
      msg_type: w.msgType,
      status: 'paused',
      paused_count: 0,
      started_at: now,
      last_request_at: now,
    })
    .onConflict((oc) => oc.column('template_id').where(sql<boolean>`status = 'paused'`).doNothing())
    .execute();
  const id = await openPauseOf(db, w.templateId);
  if (id === null) throw new Error(`no open pause for template ${w.templateId} after opening one`);
  return id;
}

export interface PauseRow {
  id: number;
  template_id: number;
  template_name: string | null;
  msg_type: number;
  status: SmsPauseStatus;
  paused_count: number;
  started_at: number;
  last_request_at: number;
  handled_at: number | null;
}

function pauses({ db }: Database, accountId: number) {
  return db
    .selectFrom('sms_template_pauses as p')
    .leftJoin('sms_templates as t', (join) =>
      join.onRef('t.id', '=', 'p.template_id').onRef('t.account_id', '=', 'p.account_id'),
    )
    .where('p.account_id', '=', accountId);
}

const PAUSE_COLUMNS = [
  'p.id',
  'p.template_id',
  't.name as template_name',
  'p.msg_type',
  'p.status',
  'p.paused_count',
  'p.started_at',
  'p.last_request_at',
  'p.handled_at',
] as const;

export async function listPauses(
  database: Database,
  accountId: number,
  filter: { status?: SmsPauseStatus | undefined; offset: number; limit: number },
): Promise<{ rows: PauseRow[]; total: number }> {
  let query = pauses(database, accountId);
  if (filter.status) query = query.where('p.status', '=', filter.status);
  const [rows, count] = await Promise.all([
    query
      .select(PAUSE_COLUMNS)
      .orderBy('p.started_at', 'desc')
      .orderBy('p.id', 'desc')
      .offset(filter.offset)
      .limit(filter.limit)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ]);
  return { rows: rows as PauseRow[], total: Number(count?.n ?? 0) };
}

export async function findPause(database: Database, accountId: number, id: number) {
  const row = await pauses(database, accountId)
    .select(PAUSE_COLUMNS)
    .where('p.id', '=', id)
    .executeTakeFirst();
  return row as PauseRow | undefined;
}

/** Marks an open pause handled; false when it was not open (handled meanwhile). */
export async function closePause(
  { db }: Database,
  id: number,
  change: { status: SmsPauseStatus; handledAt: number; handledBy: number | null },
): Promise<boolean> {
  const result = await db
    .updateTable('sms_template_pauses')
    .set({ status: change.status, handled_at: change.handledAt, handled_by: change.handledBy })
    .where('id', '=', id)
    .where('status', '=', 'paused')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The held SMS of a continued pause become due now; how many. */
export async function releaseHeld({ db }: Database, pauseId: number, now: number): Promise<number> {
  const result = await db
    .updateTable('sms_messages')
    .set({ due_at: now })
    .where('pause_id', '=', pauseId)
    .where('status', '=', 'requesting')
    .where('due_at', '=', PAUSED_DUE_AT)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * The held SMS of a cancelled pause fail as processing failures (470, frequency exceeded), each
 * with its `workererror` event for SMSHook and the figures; how many. Runs in the caller's
 * transaction, which holds the SMS event order from its first event on.
 */
export async function failHeld(
  { db, dialect }: Database,
  pauseId: number,
  reason: string,
  now: number,
): Promise<number> {
  let failed = 0;
  for (;;) {
    const rows = await db
      .selectFrom('sms_messages')
      .select(['id', 'account_id'])
      .where('pause_id', '=', pauseId)
      .where('status', '=', 'requesting')
      .where('due_at', '=', PAUSED_DUE_AT)
      .limit(500)
      .execute();
    if (rows.length === 0) return failed;
    const ids = rows.map((r) => Number(r.id));
    await db
      .updateTable('sms_messages')
      .set({ status: 'processing_failed', status_code: 470, reason, done_at: now })
      .where('id', 'in', ids)
      .execute();
    if (failed === 0) await takeSmsEventOrder(db, dialect);
    await db
      .insertInto('sms_events')
      .values(
        rows.map((r) => ({
          account_id: Number(r.account_id),
          sms_message_id: Number(r.id),
          kind: 'workererror' as const,
          status_code: 470,
          message: reason,
          at: now,
        })),
      )
      .execute();
    failed += rows.length;
  }
}

/** Open pauses with no new request since `before`, of every account. */
export async function stalePauses({ db }: Database, before: number): Promise<number[]> {
  const rows = await db
    .selectFrom('sms_template_pauses')
    .select('id')
    .where('status', '=', 'paused')
    .where('last_request_at', '<', before)
    .execute();
  return rows.map((r) => Number(r.id));
}

export async function accountOfPause({ db }: Database, id: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('sms_template_pauses')
    .select('account_id')
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? Number(row.account_id) : undefined;
}

/** Per-minute counts no window reads any more. */
export async function pruneCounts({ db }: Database, now: number): Promise<void> {
  await db
    .deleteFrom('sms_template_counts')
    .where('minute', '<', Math.floor((now - COUNTS_KEPT_MS) / MINUTE))
    .execute();
}
