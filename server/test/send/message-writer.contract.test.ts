import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { KyselyMessageWriter } from '../../src/core/send/kysely-message-writer.ts';
import { type MessageWriter, SEND_REQUEST_TTL_MS } from '../../src/core/send/message-writer.ts';
import { quotaDay } from '../../src/core/send/quota.ts';
import type { AcceptResult, PreparedMessage } from '../../src/core/send/send.types.ts';
import { SqliteMessageWriter } from '../../src/core/send/sqlite-message-writer.ts';
import type { Database } from '../../src/db/database.ts';
import { createSender, createTemplate, type Sender } from '../fixtures/factory.ts';
import { createTestDatabase, type TestDatabase, testDialect } from '../helpers/database.ts';

/**
 * The message writer's contract (core/send/message-writer.ts), the same cases against every
 * implementation the run's database allows: on the embedded default the SQLite writer thread and
 * the Kysely writer over the same file; on PostgreSQL the Kysely writer. What a case checks is
 * read back through a connection of its own, after the write has answered.
 */
const implementations: { name: string; open(db: TestDatabase, database: Database): MessageWriter }[] = [
  { name: `Kysely (${testDialect})`, open: (_db, database) => new KyselyMessageWriter(database) },
];
if (testDialect === 'sqlite') {
  implementations.push({
    name: 'SQLite writer thread',
    open: (db) => {
      if (db.config.kind !== 'sqlite') throw new Error('a SQLite file is needed');
      return new SqliteMessageWriter(db.config.file);
    },
  });
}

for (const implementation of implementations) {
  describe(`message writer contract: ${implementation.name}`, () => {
    let db: TestDatabase;
    let database: Database;
    let reader: Database;
    let writer: MessageWriter;

    before(async () => {
      db = await createTestDatabase();
      database = db.open();
      reader = db.open();
      writer = implementation.open(db, database);
    });

    after(async () => {
      await writer.close();
      await database.close();
      await reader.close();
      await db.drop();
    });

    function prepared(
      sender: Sender,
      recipients: string[],
      fields: Partial<PreparedMessage> = {},
    ): PreparedMessage {
      const messageId = `${Date.now()}${randomBytes(4).toString('hex')}$${sender.domain}`;
      return {
        accountId: sender.accountId,
        apiUserId: sender.apiUserId,
        source: 'api',
        emailType: 'trigger',
        messageId,
        fromAddress: `hello@${sender.domain}`,
        fromName: 'Hello',
        replyTo: null,
        subject: 'Contract',
        contentSummary: null,
        labelId: null,
        templateId: null,
        headers: null,
        xsmtpapi: null,
        useNotification: false,
        individual: true,
        html: '<p>hi</p>',
        plain: null,
        mime: null,
        attachments: [],
        recipients: recipients.map((recipient, index) => ({
          index,
          emailId: `${messageId}${index}$${recipient}`,
          recipient,
          domain: recipient.slice(recipient.indexOf('@') + 1),
          kind: 'to',
          vars: null,
        })),
        sizeBytes: 100,
        sendRequestId: null,
        accountLimit: null,
        apiUserLimit: null,
        ...fields,
      };
    }

    async function write(items: PreparedMessage[]): Promise<(AcceptResult | Error)[]> {
      return writer.write(items);
    }

    function accepted(result: AcceptResult | Error | undefined): AcceptResult {
      if (!result || result instanceof Error) throw new Error(`not accepted: ${String(result)}`);
      return result;
    }

    async function rowsOf(messageId: string) {
      const message = await reader.db
        .selectFrom('messages')
        .selectAll()
        .where('message_id', '=', messageId)
        .executeTakeFirst();
      if (!message) return null;
      const id = Number(message.id);
      const recipients = await reader.db
        .selectFrom('message_recipients')
        .selectAll()
        .where('message_id', '=', id)
        .orderBy('rcpt_index')
        .execute();
      const content = await reader.db
        .selectFrom('message_contents')
        .selectAll()
        .where('message_id', '=', id)
        .executeTakeFirst();
      const events = await reader.db
        .selectFrom('mail_events')
        .select(['kind', 'recipient'])
        .where('message_id', '=', id)
        .orderBy('id')
        .execute();
      return { message, recipients, content, events };
    }

    it('writes the message, its body, one due recipient row and one request event per recipient before it answers', async () => {
      const sender = await createSender(database);
      const item = prepared(sender, ['ann@example.org', 'bob@example.net']);
      const [result] = await write([item]);
      assert.deepEqual(accepted(result), {
        messageId: item.messageId,
        emailIdList: item.recipients.map((r) => r.emailId),
        replayed: false,
      });
      const rows = await rowsOf(item.messageId);
      assert.ok(rows, 'the message is committed');
      assert.equal(rows.message.subject, 'Contract');
      assert.equal(rows.content?.html, '<p>hi</p>');
      assert.deepEqual(
        rows.recipients.map((r) => [r.recipient, r.recipient_domain, r.status, r.email_id]),
        [
          ['ann@example.org', 'example.org', 'requested', item.recipients[0]?.emailId],
          ['bob@example.net', 'example.net', 'requested', item.recipients[1]?.emailId],
        ],
      );
      assert.ok(rows.recipients.every((r) => Number(r.next_attempt_at) <= Date.now()));
      assert.deepEqual(
        rows.events.map((e) => [e.kind, e.recipient]),
        [
          ['request', 'ann@example.org'],
          ['request', 'bob@example.net'],
        ],
      );
      const usage = await reader.db
        .selectFrom('daily_usage')
        .select('count')
        .where('api_user_id', '=', sender.apiUserId)
        .where('day', '=', quotaDay(Date.now()))
        .executeTakeFirstOrThrow();
      assert.equal(Number(usage.count), 2);
    });

    it('answers a sendRequestId seen within the TTL with its first answer and writes nothing more', async () => {
      const sender = await createSender(database);
      const first = prepared(sender, ['ann@example.org'], { sendRequestId: 'req-1' });
      const again = prepared(sender, ['ann@example.org'], { sendRequestId: 'req-1' });
      const [a] = await write([first]);
      const [b, c] = await write([again, prepared(sender, ['cy@example.org'], { sendRequestId: 'req-1' })]);
      assert.equal(accepted(a).replayed, false);
      assert.deepEqual(accepted(b), { ...accepted(a), replayed: true });
      assert.deepEqual(accepted(c), { ...accepted(a), replayed: true });
      assert.equal(await rowsOf(again.messageId), null);
      const request = await reader.db
        .selectFrom('send_requests')
        .select('expires_at')
        .where('send_request_id', '=', 'req-1')
        .where('account_id', '=', sender.accountId)
        .executeTakeFirstOrThrow();
      assert.ok(Math.abs(Number(request.expires_at) - (Date.now() + SEND_REQUEST_TTL_MS)) < 60_000);
    });

    it('forgets an expired sendRequestId and accepts the message anew', async () => {
      const sender = await createSender(database);
      const [a] = await write([prepared(sender, ['ann@example.org'], { sendRequestId: 'req-old' })]);
      await database.db
        .updateTable('send_requests')
        .set({ expires_at: Date.now() - 1 })
        .where('send_request_id', '=', 'req-old')
        .execute();
      const fresh = prepared(sender, ['ann@example.org'], { sendRequestId: 'req-old' });
      const [b] = await write([fresh]);
      assert.equal(accepted(b).replayed, false);
      assert.notEqual(accepted(b).messageId, accepted(a).messageId);
      assert.ok(await rowsOf(fresh.messageId));
    });

    it('refuses what would pass the account’s or the API_USER’s daily quota, counting a batch in order', async () => {
      const sender = await createSender(database);
      const limit = { accountLimit: 3, apiUserLimit: null };
      const [one, two, three] = await write([
        prepared(sender, ['a@example.org', 'b@example.org'], limit),
        prepared(sender, ['c@example.org', 'd@example.org'], limit),
        prepared(sender, ['e@example.org'], limit),
      ]);
      accepted(one);
      assert.ok(two instanceof Error);
      assert.equal((two as Error & { code?: string }).code, 'SEND_QUOTA_EXCEEDED');
      accepted(three);
      const [four] = await write([prepared(sender, ['f@example.org'], limit)]);
      assert.equal((four as Error & { code?: string }).code, 'SEND_QUOTA_EXCEEDED');

      const tester = await createSender(database, { cType: 'test' });
      const [over] = await write([
        prepared(tester, ['a@example.org', 'b@example.org'], { accountLimit: null, apiUserLimit: 1 }),
      ]);
      assert.equal((over as Error & { code?: string }).code, 'SEND_TEST_QUOTA_EXCEEDED');
      const count = await reader.db
        .selectFrom('messages')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('account_id', '=', tester.accountId)
        .executeTakeFirstOrThrow();
      assert.equal(Number(count.n), 0);
    });

    it('records the template’s last use', async () => {
      const sender = await createSender(database);
      const templateId = await createTemplate(database, sender.accountId, {
        invokeName: 'welcome',
        status: 'passed',
      });
      const [result] = await write([prepared(sender, ['ann@example.org'], { templateId })]);
      accepted(result);
      const template = await reader.db
        .selectFrom('email_templates')
        .select('last_used_at')
        .where('id', '=', templateId)
        .executeTakeFirstOrThrow();
      assert.ok(Math.abs(Number(template.last_used_at) - Date.now()) < 60_000);
    });
  });
}
