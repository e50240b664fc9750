import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Insertable } from 'kysely';
import { failHeld, PAUSED_DUE_AT } from '../../src/core/sms-protection/sms-pauses.repo.ts';
import { insertReplyEvent } from '../../src/core/sms-replies/sms-replies.repo.ts';
import { insertMessages } from '../../src/core/sms-send/sms-send.repo.ts';
import { fanOutSmsEvents } from '../../src/core/webhooks/sms-hook-fan-out.ts';
import type { Database } from '../../src/db/database.ts';
import { takeSmsEventOrder } from '../../src/db/sms-event-log.ts';
import type { SmsMessagesTable } from '../../src/db/sms-schema.ts';
import { SmsStore } from '../../src/sms/store/sms-store.ts';
import { createAccount } from '../fixtures/factory.ts';
import { createTestDatabase, type TestDatabase, testDialect } from '../helpers/database.ts';

/**
 * The SMS event log's order on PostgreSQL. Its consumers (the SMSHook fan-out here) read
 * `id > cursor`, so an event id must never become visible before a lower one still to commit.
 * A slow transaction takes the SMS event order and writes an event, then stays open; meanwhile
 * every writer of sms_events runs on another connection and the fan-out reads in between. Each
 * writer must wait for the open transaction, and the fan-out must read every event once. A
 * writer without the order shows what goes wrong: the fan-out passes over the slow event.
 * SQLite has one writer at a time, so the case cannot arise there.
 */
describe('SMS event order', { skip: testDialect !== 'postgres' && 'PostgreSQL only' }, () => {
  let testDb: TestDatabase;
  let holder: Database;
  let writer: Database;
  let reader: Database;
  let accountId: number;
  let carrierId: number;
  let slowMessage: number;
  let serial = 0;

  before(async () => {
    testDb = await createTestDatabase();
    [holder, writer, reader] = [testDb.open(), testDb.open(), testDb.open()];
    accountId = await createAccount(holder);
    const carrier = await holder.db
      .insertInto('sms_carriers')
      .values({
        name: 'order',
        url: 'smpp://127.0.0.1:1',
        system_id: 'x',
        secret_sealed: 'x',
        created_at: Date.now(),
        updated_at: Date.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    carrierId = Number(carrier.id);
    slowMessage = await message({});
  });
  after(async () => {
    for (const d of [holder, writer, reader]) await d?.close();
    await testDb?.drop();
  });

  async function message(fields: Partial<Insertable<SmsMessagesTable>>): Promise<number> {
    serial += 1;
    const now = Date.now();
    const row = await holder.db
      .insertInto('sms_messages')
      .values({
        sms_id: `order-${serial}`,
        account_id: accountId,
        sms_user_id: null,
        template_id: null,
        label_id: null,
        msg_type: 0,
        phone: `+86138001${String(serial).padStart(5, '0')}`,
        country: 'CN',
        price_class: 'domestic',
        parts: 1,
        content: 'order',
        tag: null,
        source: 'api',
        status: 'requesting',
        status_code: 200,
        reason: null,
        carrier_id: null,
        due_at: now,
        lease_owner: null,
        lease_until: null,
        requested_at: now,
        submitted_at: null,
        done_at: null,
        ...fields,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  const fanOut = async () => (await fanOutSmsEvents(reader, 100, Date.now())).read;
  const drain = async () => {
    let total = 0;
    for (let read = await fanOut(); read > 0; read = await fanOut()) total += read;
    return total;
  };

  /**
   * Runs `write` while a transaction holding the event order (and a lower event id) is open, and
   * the fan-out once in between; answers what the fan-out read then, afterwards, and whether
   * `write` had finished before the slow transaction committed.
   */
  async function race(write: () => Promise<unknown>, order = true) {
    await drain();
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let opened = () => {};
    const ready = new Promise<void>((resolve) => {
      opened = resolve;
    });
    const slow = holder.db.transaction().execute(async (trx) => {
      if (order) await takeSmsEventOrder(trx, holder.dialect);
      await trx
        .insertInto('sms_events')
        .values({
          account_id: accountId,
          sms_message_id: slowMessage,
          kind: 'deliver',
          status_code: 200,
          message: 'slow',
          at: Date.now(),
        })
        .execute();
      opened();
      await gate;
    });
    await ready;
    let finished = false;
    const writing = write().finally(() => {
      finished = true;
    });
    await sleep(300);
    const between = await fanOut();
    const finishedFirst = finished;
    release();
    await slow;
    await writing;
    return { between, afterwards: await drain(), finishedFirst };
  }

  it('without the order, a cursor reader passes over an event that commits after a higher id', async () => {
    const id = await message({});
    const seen = await race(
      () =>
        writer.db
          .insertInto('sms_events')
          .values({
            account_id: accountId,
            sms_message_id: id,
            kind: 'request',
            status_code: 200,
            message: null,
            at: Date.now(),
          })
          .execute(),
      false,
    );
    assert.deepEqual(seen, { between: 1, afterwards: 0, finishedFirst: true }, 'the slow event is lost');
  });

  const writers: [string, () => Promise<() => Promise<unknown>>][] = [
    [
      'accepting (request)',
      async () => () =>
        insertMessages(
          writer,
          [
            {
              messages: [
                {
                  smsId: 'order-accepted',
                  accountId,
                  smsUserId: null,
                  templateId: null,
                  labelId: null,
                  msgType: 0,
                  phone: '+8613800199999',
                  country: 'CN',
                  priceClass: 'domestic',
                  parts: 1,
                  content: 'order',
                  tag: null,
                  source: 'api',
                },
              ],
              request: undefined,
            },
          ],
          Date.now(),
        ),
    ],
    [
      'a processing failure (workererror)',
      async () => {
        const id = await message({ lease_owner: 'w1', lease_until: Date.now() + 60_000 });
        return () =>
          new SmsStore(writer).writeOutcomes([
            {
              kind: 'failed',
              id,
              accountId,
              owner: 'w1',
              statusCode: 420,
              reason: 'listed',
              carrierId: null,
              at: Date.now(),
            },
          ]);
      },
    ],
    [
      'a receipt (deliver)',
      async () => {
        const id = await message({ status: 'waiting', carrier_id: carrierId, submitted_at: Date.now() });
        await holder.db
          .insertInto('sms_carrier_ids')
          .values({ carrier_id: carrierId, carrier_message_id: 'order-receipt', sms_message_id: id })
          .execute();
        return () =>
          new SmsStore(writer).applyReceipts([
            {
              carrierId,
              carrierMessageId: 'order-receipt',
              statusCode: 200,
              reason: 'DELIVRD',
              at: Date.now(),
            },
          ]);
      },
    ],
    [
      'no receipt in time (delivererror)',
      async () => {
        await message({ status: 'waiting', carrier_id: carrierId, submitted_at: 1 });
        return () => new SmsStore(writer).expireWaiting(1_000, Date.now());
      },
    ],
    [
      'a cancelled pause (workererror)',
      async () => {
        await message({ pause_id: 9_001, due_at: PAUSED_DUE_AT });
        return () =>
          writer.db
            .transaction()
            .execute((trx) => failHeld({ ...writer, db: trx }, 9_001, 'cancelled', Date.now()));
      },
    ],
    [
      'a reply (reply)',
      async () => {
        const id = await message({ status: 'delivered' });
        return () =>
          writer.db.transaction().execute((trx) =>
            insertReplyEvent(
              { ...writer, db: trx },
              {
                accountId,
                smsMessageId: id,
                content: 'ok',
                at: Date.now(),
              },
            ),
          );
      },
    ],
  ];

  for (const [name, prepare] of writers) {
    it(`${name}: waits for the open event order, and the cursor reader misses nothing`, async () => {
      const write = await prepare();
      const seen = await race(write);
      assert.deepEqual(seen, { between: 0, afterwards: 2, finishedFirst: false });
    });
  }
});
