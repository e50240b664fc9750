import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Database } from '../../src/db/database.ts';
import type { DeliveryStore, OutcomeRecord } from '../../src/mta/store/delivery-store.ts';
import { KyselyDeliveryStore } from '../../src/mta/store/kysely-delivery-store.ts';
import { SqliteDeliveryStore } from '../../src/mta/store/sqlite-delivery-store.ts';
import { createAccount } from '../fixtures/factory.ts';
import { createTestDatabase, type TestDatabase, testDialect } from '../helpers/database.ts';

/**
 * The delivery store's contract (mta/store/delivery-store.ts), the same cases against every
 * implementation the run's database allows: on the embedded default the SQLite writer thread and
 * the Kysely store over the same file; on PostgreSQL the Kysely store. Each case reads the rows
 * back through a connection of its own.
 */
const implementations: { name: string; open(db: TestDatabase, database: Database): DeliveryStore }[] = [
  { name: `Kysely (${testDialect})`, open: (_db, database) => new KyselyDeliveryStore(database) },
];
if (testDialect === 'sqlite') {
  implementations.push({
    name: 'SQLite writer thread',
    open: (db) => {
      if (db.config.kind !== 'sqlite') throw new Error('a SQLite file is needed');
      return new SqliteDeliveryStore(db.config.file);
    },
  });
}

const LEASE = 60_000;

for (const implementation of implementations) {
  describe(`delivery store contract: ${implementation.name}`, () => {
    let db: TestDatabase;
    let database: Database;
    let store: DeliveryStore;
    let accountId: number;

    before(async () => {
      db = await createTestDatabase();
      database = db.open();
      store = implementation.open(db, database);
      accountId = await createAccount(database);
    });

    /** Each case starts with an empty queue: whatever a case left is finished here. */
    afterEach(async () => {
      await database.db
        .updateTable('message_recipients')
        .set({ status: 'deleted', lease_owner: null, lease_expires_at: null })
        .where('status', 'in', ['requested', 'deferred', 'held', 'sending'])
        .execute();
    });

    after(async () => {
      await store.close();
      await database.close();
      await db.drop();
    });

    /** A message with one recipient per status given, due at `dueAt`; answers the recipient ids. */
    async function queue(statuses: string[], dueAt = Date.now() - 1000): Promise<number[]> {
      const now = Date.now();
      const message = await database.db
        .insertInto('messages')
        .values({
          account_id: accountId,
          message_id: `contract-${now}-${Math.random()}`,
          source: 'api',
          email_type: 'trigger',
          from_address: 'from@example.com',
          subject: 'contract',
          recipient_count: statuses.length,
          size_bytes: 10,
          created_at: now - 5000,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const rows = await database.db
        .insertInto('message_recipients')
        .values(
          statuses.map((status, i) => ({
            account_id: accountId,
            message_id: Number(message.id),
            rcpt_index: i,
            email_id: `${message.id}-${i}`,
            recipient: `r${i}@example.net`,
            recipient_domain: 'example.net',
            kind: 'to' as const,
            status,
            next_attempt_at: dueAt,
            created_at: now - 5000,
            updated_at: now,
          })),
        )
        .returning('id')
        .execute();
      return rows.map((r) => Number(r.id));
    }

    async function claimAll(owner: string): Promise<number[]> {
      return (await store.claim(owner, 1000, Date.now(), LEASE)).map((r) => r.id);
    }

    function recipient(id: number) {
      return database.db
        .selectFrom('message_recipients')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    }

    function outcome(id: number, owner: string, fields: Partial<OutcomeRecord>): OutcomeRecord {
      return {
        recipientId: id,
        accountId,
        owner,
        status: 'delivered',
        attempt: 1,
        countsAsAttempt: true,
        at: Date.now(),
        nextAttemptAt: null,
        category: null,
        reason: null,
        subStatus: null,
        reply: '250 ok',
        mxHost: 'mx.example.net',
        mxIp: '127.0.0.1',
        tls: false,
        durationMs: 5,
        ...fields,
      };
    }

    it('claims due rows under the owner’s lease, never a future one, and no one else gets them meanwhile', async () => {
      const due = await queue(['requested', 'deferred', 'held']);
      const [future] = await queue(['deferred'], Date.now() + 60_000);
      const claimed = await store.claim('worker-a', 1000, Date.now(), LEASE);
      assert.deepEqual(claimed.map((r) => r.id).sort(), [...due].sort());
      assert.equal(typeof claimed[0]?.created_at, 'number');
      for (const id of due) {
        const row = await recipient(id);
        assert.equal(row.status, 'sending');
        assert.equal(row.lease_owner, 'worker-a');
      }
      assert.equal((await recipient(future as number)).status, 'deferred');
      assert.deepEqual(await claimAll('worker-b'), []);
      await store.release('worker-a');
    });

    it('takes back a row whose lease ran out, and fences the old owner out of it', async () => {
      const [id] = (await queue(['requested'])) as [number];
      assert.deepEqual(
        (await store.claim('stalled', 10, Date.now(), 1)).map((r) => r.id),
        [id],
      );
      await new Promise((resolve) => setTimeout(resolve, 10));
      assert.deepEqual(await claimAll('rescuer'), [id]);
      assert.deepEqual(await store.writeOutcomes([outcome(id, 'stalled', {})]), [false]);
      const marked = await store.markDotSent('stalled', [id], Date.now(), (set) => set);
      assert.equal(marked.size, 0);
      assert.equal((await recipient(id)).lease_owner, 'rescuer');
      await store.release('rescuer');
    });

    it('renews only the leases of the rows named, and only its own', async () => {
      const [a, b] = (await queue(['requested', 'requested'])) as [number, number];
      await store.claim('renewer', 1000, Date.now(), LEASE);
      const before = Number((await recipient(b)).lease_expires_at);
      assert.equal(await store.renew('renewer', [a], Date.now(), LEASE * 2), 1);
      assert.equal(await store.renew('someone-else', [a, b], Date.now(), LEASE * 2), 0);
      assert.ok(Number((await recipient(a)).lease_expires_at) > before);
      assert.equal(Number((await recipient(b)).lease_expires_at), before);
      await store.release('renewer');
    });

    it('marks the final dot of held rows only, and writes the dots before it answers', async () => {
      const [mine] = (await queue(['requested'])) as [number];
      await store.claim('marker', 1000, Date.now(), LEASE);
      const [other] = (await queue(['requested'])) as [number];
      let dotsFor: Set<number> | null = null;
      const marked = await store.markDotSent('marker', [mine, other], Date.now(), (set) => {
        dotsFor = new Set(set);
        return set;
      });
      assert.deepEqual([...marked], [mine]);
      assert.deepEqual(dotsFor && [...(dotsFor as Set<number>)], [mine]);
      assert.notEqual((await recipient(mine)).dot_sent_at, null);
      assert.equal((await recipient(other)).dot_sent_at, null);
    });

    it('takes the mark back from a row whose dot could not be written', async () => {
      const [written, refused] = (await queue(['requested', 'requested'])) as [number, number];
      await store.claim('busy', 1000, Date.now(), LEASE);
      const marked = await store.markDotSent(
        'busy',
        [written, refused],
        Date.now(),
        () => new Set([written]),
      );
      assert.deepEqual([...marked], [written]);
      assert.notEqual((await recipient(written)).dot_sent_at, null);
      assert.equal((await recipient(refused)).dot_sent_at, null, 'no dot, no mark');
      await store.release('busy');
    });

    it('records a delivery: status, attempt count, send log row and deliver event in one go', async () => {
      const [id] = (await queue(['requested'])) as [number];
      await claimAll('recorder');
      const at = Date.now();
      assert.deepEqual(await store.writeOutcomes([outcome(id, 'recorder', { at })]), [true]);
      const row = await recipient(id);
      assert.equal(row.status, 'delivered');
      assert.equal(Number(row.attempts), 1);
      assert.equal(Number(row.delivered_at), at);
      assert.equal(row.lease_owner, null);
      assert.equal(row.last_reply, '250 ok');
      const log = await database.db
        .selectFrom('recipient_attempts')
        .selectAll()
        .where('recipient_id', '=', id)
        .execute();
      assert.deepEqual(
        log.map((l) => [l.outcome, l.mx_host, l.reply]),
        [['delivered', 'mx.example.net', '250 ok']],
      );
      const events = await database.db
        .selectFrom('mail_events')
        .selectAll()
        .where('recipient_id', '=', id)
        .execute();
      assert.deepEqual(
        events.map((e) => e.kind),
        ['deliver'],
      );
      assert.ok(Number(events[0]?.latency_ms) >= 5000);
    });

    it('records a deferral for later (no event, the dot mark cleared) and a final failure with its event', async () => {
      const [deferred, failed] = (await queue(['requested', 'requested'])) as [number, number];
      await claimAll('mixed');
      await store.markDotSent('mixed', [deferred], Date.now(), (set) => set);
      const retryAt = Date.now() + 120_000;
      const written = await store.writeOutcomes([
        outcome(deferred, 'mixed', { status: 'deferred', nextAttemptAt: retryAt, reply: '421 later' }),
        outcome(failed, 'mixed', {
          status: 'invalid',
          countsAsAttempt: false,
          category: 'bounce',
          reason: 'in blacklist',
          subStatus: 401,
          reply: 'on the bounce list',
        }),
      ]);
      assert.deepEqual(written, [true, true]);
      const d = await recipient(deferred);
      assert.equal(d.status, 'deferred');
      assert.equal(Number(d.next_attempt_at), retryAt);
      assert.equal(d.dot_sent_at, null);
      const f = await recipient(failed);
      assert.equal(f.status, 'invalid');
      assert.equal(Number(f.attempts), 0);
      assert.equal(Number(f.sub_status), 401);
      const events = await database.db
        .selectFrom('mail_events')
        .select(['recipient_id', 'kind', 'sub_status', 'reason'])
        .where('recipient_id', 'in', [deferred, failed])
        .execute();
      assert.deepEqual(
        events.map((e) => [Number(e.recipient_id), e.kind, Number(e.sub_status), e.reason]),
        [[failed, 'invalid', 401, 'in blacklist']],
      );
    });

    it('hands rows back: one (unless its dot is marked), a batch, or all of an owner’s', async () => {
      const [one, dotted, batchA, batchB] = (await queue([
        'requested',
        'requested',
        'requested',
        'requested',
      ])) as [number, number, number, number];
      await claimAll('giver');
      await store.markDotSent('giver', [dotted], Date.now(), (set) => set);
      await store.releaseOne('giver', one);
      await store.releaseOne('giver', dotted);
      await store.releaseIds('giver', [batchA]);
      assert.deepEqual((await claimAll('taker')).sort(), [one, batchA].sort());
      await store.release('giver');
      assert.deepEqual((await claimAll('taker')).sort(), [dotted, batchB].sort());
      await store.release('taker');
    });
  });
}
