import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type Herald, startHerald } from '@herald/test-peers';
import { openDatabase } from '../../src/db/database.ts';
import { createSender, type Sender } from '../fixtures/factory.ts';

/**
 * "Accepted means durable": a Herald process answers 200 to many concurrent sends and is then
 * killed with SIGKILL, with no chance to flush anything; every emailId it answered must be in
 * the database file afterwards, with status requested.
 */
let herald: Herald | undefined;
let dir: string;
let file: string;
let f: Sender;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'herald-durability-'));
  file = join(dir, 'herald.db');
  herald = await startHerald({ env: { DATABASE_URL: `sqlite:${file}`, HERALD_ROLE: 'api' } });
  const database = openDatabase({ kind: 'sqlite', file });
  try {
    f = await createSender(database);
  } finally {
    await database.close();
  }
});

after(async () => {
  await herald?.kill().catch(() => {});
  await rm(dir, { recursive: true, force: true });
});

test('every answered emailId survives a SIGKILL right after the answers', async () => {
  const running = herald as Herald;
  const answered: string[] = [];
  await Promise.all(
    Array.from({ length: 300 }, async (_, i) => {
      const response = await fetch(`${running.url}/apiv2/mail/send`, {
        method: 'POST',
        body: new URLSearchParams({
          apiUser: f.apiUser,
          apiKey: f.apiKey,
          from: `a@${f.domain}`,
          to: `r${i}@example.org`,
          subject: 'durable',
          html: '<p>x</p>',
        }),
      });
      const body = (await response.json()) as { statusCode: number; info: { emailIdList: string[] } };
      assert.equal(body.statusCode, 200);
      answered.push(...body.info.emailIdList);
    }),
  );
  await running.kill();
  herald = undefined;

  const database = openDatabase({ kind: 'sqlite', file });
  try {
    const rows = await database.db
      .selectFrom('message_recipients')
      .select(['email_id', 'status'])
      .where('status', '=', 'requested')
      .execute();
    const stored = new Set(rows.map((r) => r.email_id));
    assert.equal(answered.length, 300);
    assert.deepEqual(
      answered.filter((id) => !stored.has(id)),
      [],
    );
  } finally {
    await database.close();
  }
});
