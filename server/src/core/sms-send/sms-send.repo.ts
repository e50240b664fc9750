import { createHash } from 'node:crypto';
import type { MmsPage } from '@herald/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { takeSmsEventOrder } from '../../db/sms-event-log.ts';
import type { SmsMessageStatus } from '../../db/sms-schema.ts';
import { type GuardedWrite, guardTemplates, PAUSED_DUE_AT } from '../sms-protection/sms-pauses.repo.ts';

export interface NewSms {
  smsId: string;
  accountId: number;
  smsUserId: number | null;
  templateId: number | null;
  labelId: number | null;
  msgType: number;
  phone: string;
  country: string;
  priceClass: string;
  parts: number;
  content: string;
  tag: string | null;
  source: string;
  /** Short links of its text (link tracking), written with it. */
  links?: { id: number; url: string }[];
  /** A gateway submit's: the reports owed to the customer, one per Msg_Id, written with it. */
  gateway?: { userId: number; srcId: string; wantsReport: boolean; msgIds: string[] } | undefined;
  /** The SMS task that writes it; its messages go in the task lane (migration 0046). */
  taskId?: number | undefined;
  /**
   * An MMS's content: the template's pages (one array shared by a call's messages, stored once
   * per account and digest, migration 0057) and this number's filled page texts.
   */
  mms?: { pages: MmsPage[]; texts: (string | null)[] } | undefined;
  /** A voice message's code, the digits its call reads out (migration 0058). */
  voiceCode?: string | undefined;
}

/**
 * A task chunk's progress, written in the same transaction as its messages and fenced by the
 * task's lease: a worker that lost the task writes nothing, so no number is sent twice.
 */
export interface TaskProgress {
  taskId: number;
  owner: string;
  leaseUntil: number;
  cursorList: number;
  cursorPhone: string;
  cursorMessage: number;
  queued: number;
  skipped: number;
  skipReasons: string;
  /** Every message of the task is written with this chunk. */
  written: boolean;
}

export interface PendingWrite {
  messages: NewSms[];
  request: { smsUserId: number; requestId: string; answer: string } | undefined;
  /** The anti-bombing template guard these messages pass, when their template has one. */
  guard?: Omit<GuardedWrite, 'count'> | undefined;
  task?: TaskProgress | undefined;
}

/**
 * Commits the messages (the SMS queue rows) and their `request` events, and each call's
 * sendRequestId with its answer, for several calls in one transaction (a group commit: calls that
 * arrive while one is written share the next). Answers, per call, false when its request id was
 * taken meanwhile (a concurrent retry of the same call): nothing of that call was written. The
 * events go last, under the SMS event order (sms-event-log.ts), which the commit then releases.
 */
export async function insertMessages(
  database: Database,
  writes: PendingWrite[],
  now: number,
): Promise<boolean[]> {
  return database.db.transaction().execute(async (trx) => {
    const written: boolean[] = [];
    const rows: (NewSms & { pauseId: number | null })[] = [];
    const guarded: { guard: GuardedWrite; messages: NewSms[] }[] = [];
    for (const { messages, request, guard, task } of writes) {
      if (task && !(await advanceTask(trx, task, now))) {
        written.push(false);
        continue;
      }
      if (request) {
        const taken = await trx
          .insertInto('sms_send_requests')
          .values({
            sms_user_id: request.smsUserId,
            request_id: request.requestId,
            answer: request.answer,
            created_at: now,
          })
          .onConflict((oc) => oc.columns(['sms_user_id', 'request_id']).doNothing())
          .executeTakeFirst();
        if (Number(taken.numInsertedOrUpdatedRows ?? 0n) === 0) {
          written.push(false);
          continue;
        }
      }
      written.push(true);
      if (guard) guarded.push({ guard: { ...guard, count: messages.length }, messages });
      else rows.push(...messages.map((m) => ({ ...m, pauseId: null })));
    }
    if (guarded.length > 0) {
      const held = await guardTemplates(
        { ...database, db: trx },
        guarded.map((g) => g.guard),
        now,
      );
      for (const [i, g] of guarded.entries()) {
        rows.push(...g.messages.map((m) => ({ ...m, pauseId: held[i] ?? null })));
      }
    }
    const inserted: { id: number; account_id: number }[] = [];
    const bodyIds = await insertMmsBodies(trx, rows, now);
    for (let i = 0; i < rows.length; i += 200) {
      const chunk = rows.slice(i, i + 200);
      const ids = await trx
        .insertInto('sms_messages')
        .values(
          chunk.map((m) => ({
            sms_id: m.smsId,
            account_id: m.accountId,
            sms_user_id: m.smsUserId,
            template_id: m.templateId,
            label_id: m.labelId,
            msg_type: m.msgType,
            phone: m.phone,
            country: m.country,
            price_class: m.priceClass,
            parts: m.parts,
            content: m.content,
            tag: m.tag,
            source: m.source,
            status: 'requesting' as SmsMessageStatus,
            status_code: 200,
            due_at: m.pauseId === null ? now : PAUSED_DUE_AT,
            pause_id: m.pauseId,
            task_id: m.taskId ?? null,
            lane: m.taskId === undefined ? 0 : 1,
            requested_at: now,
            mms_body_id: m.mms ? (bodyIds.get(m.mms.pages) ?? null) : null,
            mms_texts: m.mms ? JSON.stringify(m.mms.texts) : null,
            voice_code: m.voiceCode ?? null,
          })),
        )
        .returning(['id', 'account_id', 'sms_id'])
        .execute();
      await insertGatewayReceipts(trx, chunk, ids, now);
      const links = chunk.flatMap((m) =>
        (m.links ?? []).map((l) => ({
          id: l.id,
          account_id: m.accountId,
          sms_id: m.smsId,
          phone: m.phone,
          url: l.url,
          created_at: now,
        })),
      );
      if (links.length > 0) await trx.insertInto('sms_short_links').values(links).execute();
      inserted.push(...ids);
    }
    if (inserted.length > 0) await takeSmsEventOrder(trx, database.dialect);
    for (let i = 0; i < inserted.length; i += 200) {
      await trx
        .insertInto('sms_events')
        .values(
          inserted.slice(i, i + 200).map((r) => ({
            account_id: Number(r.account_id),
            sms_message_id: Number(r.id),
            kind: 'request' as const,
            status_code: 200,
            message: null,
            at: now,
          })),
        )
        .execute();
    }
    return written;
  });
}

/** The MMS bodies these messages need, each stored once per account and content digest. */
async function insertMmsBodies(
  trx: Kysely<DB>,
  messages: NewSms[],
  now: number,
): Promise<Map<MmsPage[], number>> {
  const ids = new Map<MmsPage[], number>();
  for (const m of messages) {
    if (!m.mms || ids.has(m.mms.pages)) continue;
    const pages = JSON.stringify(m.mms.pages);
    const digest = createHash('sha256').update(pages).digest('hex');
    await trx
      .insertInto('sms_mms_bodies')
      .values({ account_id: m.accountId, digest, pages, created_at: now })
      .onConflict((oc) => oc.columns(['account_id', 'digest']).doNothing())
      .execute();
    const row = await trx
      .selectFrom('sms_mms_bodies')
      .select('id')
      .where('account_id', '=', m.accountId)
      .where('digest', '=', digest)
      .executeTakeFirstOrThrow();
    ids.set(m.mms.pages, Number(row.id));
  }
  return ids;
}

/** Moves a task's cursor and counts on, while `task.owner` still holds it; false once it does not. */
async function advanceTask(trx: Kysely<DB>, task: TaskProgress, now: number): Promise<boolean> {
  const result = await trx
    .updateTable('sms_tasks')
    .set({
      cursor_list: task.cursorList,
      cursor_phone: task.cursorPhone,
      cursor_message: task.cursorMessage,
      queued: task.queued,
      skipped: task.skipped,
      skip_reasons: task.skipReasons,
      written: task.written ? 1 : 0,
      lease_until: task.leaseUntil,
      updated_at: now,
    })
    .where('id', '=', task.taskId)
    .where('lease_owner', '=', task.owner)
    .where('status', '=', 'sending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The reports a gateway submit owes its customer, waiting for their SMS to settle (migration 0042). */
async function insertGatewayReceipts(
  trx: Kysely<DB>,
  chunk: NewSms[],
  ids: { id: number; sms_id: string }[],
  now: number,
): Promise<void> {
  const idOf = new Map(ids.map((r) => [r.sms_id, Number(r.id)]));
  const rows = chunk.flatMap((m) =>
    (m.gateway?.msgIds ?? []).map((msgId) => ({
      account_id: m.accountId,
      gateway_user_id: m.gateway?.userId as number,
      sms_message_id: idOf.get(m.smsId) ?? null,
      kind: 'report' as const,
      msg_id: msgId,
      phone: m.phone,
      src_id: m.gateway?.srcId ?? '',
      wants_report: m.gateway?.wantsReport ? 1 : 0,
      state: 'waiting' as const,
      submitted_at: now,
    })),
  );
  for (let i = 0; i < rows.length; i += 200)
    await trx
      .insertInto('sms_gateway_receipts')
      .values(rows.slice(i, i + 200))
      .execute();
}

/** Gathers the writes of calls arriving together into one transaction (see insertMessages). */
export class GroupWriter {
  private queue: { write: PendingWrite; done: (ok: boolean) => void; fail: (e: unknown) => void }[] = [];
  private busy = false;
  private readonly database: Database;
  private readonly now: () => number;

  constructor(database: Database, now: () => number) {
    this.database = database;
    this.now = now;
  }

  write(write: PendingWrite): Promise<boolean> {
    return new Promise((done, fail) => {
      this.queue.push({ write, done, fail });
      if (!this.busy) this.drain();
    });
  }

  private drain(): void {
    this.busy = true;
    setImmediate(async () => {
      const batch = this.queue.splice(0, 500);
      try {
        const written = await insertMessages(
          this.database,
          batch.map((b) => b.write),
          this.now(),
        );
        for (const [i, b] of batch.entries()) b.done(written[i] ?? false);
      } catch (error) {
        for (const b of batch) b.fail(error);
      }
      if (this.queue.length > 0) this.drain();
      else this.busy = false;
    });
  }
}

/** The answer given to this sendRequestId within the last `windowMs`, if any. */
export async function findRequest(
  { db }: Database,
  smsUserId: number,
  requestId: string,
  since: number,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('sms_send_requests')
    .select(['answer', 'created_at'])
    .where('sms_user_id', '=', smsUserId)
    .where('request_id', '=', requestId)
    .executeTakeFirst();
  if (!row) return undefined;
  if (Number(row.created_at) < since) {
    await db
      .deleteFrom('sms_send_requests')
      .where('sms_user_id', '=', smsUserId)
      .where('request_id', '=', requestId)
      .execute();
    return undefined;
  }
  return row.answer;
}

/** Messages a test SMS_USER of this account sent, per price class, and today to one number. */
export async function testUsage({ db }: Database, accountId: number, phones: string[], dayStart: number) {
  const byClass = await db
    .selectFrom('sms_messages')
    .innerJoin('sms_users', 'sms_users.id', 'sms_messages.sms_user_id')
    .select(['sms_messages.price_class', (eb) => eb.fn.countAll<number>().as('n')])
    .where('sms_messages.account_id', '=', accountId)
    .where('sms_users.c_type', '=', 'test')
    .groupBy('sms_messages.price_class')
    .execute();
  const byPhone =
    phones.length === 0
      ? []
      : await db
          .selectFrom('sms_messages')
          .innerJoin('sms_users', 'sms_users.id', 'sms_messages.sms_user_id')
          .select(['sms_messages.phone', (eb) => eb.fn.countAll<number>().as('n')])
          .where('sms_messages.account_id', '=', accountId)
          .where('sms_users.c_type', '=', 'test')
          .where('sms_messages.phone', 'in', phones)
          .where('sms_messages.requested_at', '>=', dayStart)
          .groupBy('sms_messages.phone')
          .execute();
  return {
    byClass: new Map(byClass.map((r) => [r.price_class, Number(r.n)])),
    byPhone: new Map(byPhone.map((r) => [r.phone, Number(r.n)])),
  };
}
