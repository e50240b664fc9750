import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { type DkimKeyRef, DkimPool, type SignRequest } from '../../src/mta/dkim/dkim-pool.ts';
import { dkimSign } from '../../src/mta/dkim/dkim-sign.ts';
import { makeKey, type TestKey, verify } from './dkim-helpers.ts';

const NOW = new Date('2026-11-22T08:00:00Z');

function message(i: number, domain: string): Buffer {
  return Buffer.from(
    [
      `From: news@${domain}`,
      `To: user${i}@example.org`,
      `Subject: Message ${i}`,
      `Message-ID: <${i}@${domain}>`,
      '',
      `Body of message ${i}.`.repeat(1 + (i % 7)),
      '',
    ].join('\r\n'),
  );
}

describe('DKIM signing pool', () => {
  let pool: DkimPool;
  let a: TestKey;
  let b: TestKey;
  let keyA: DkimKeyRef;
  let keyB: DkimKeyRef;
  let records: Record<string, string>;
  const sent: SignRequest[] = [];
  const originalPost = Worker.prototype.postMessage;

  before(() => {
    a = makeKey();
    b = makeKey();
    keyA = { id: 'key-a', domain: 'a.example', selector: 's1', privateKey: a.privateKey };
    keyB = { id: 'key-b', domain: 'b.example', selector: 's2', privateKey: b.privateKey };
    records = { 's1._domainkey.a.example': a.txt, 's2._domainkey.b.example': b.txt };
    Worker.prototype.postMessage = function (this: Worker, value: unknown, transfer?: readonly never[]) {
      sent.push(...(value as SignRequest[]));
      return originalPost.call(this, value, transfer);
    };
    pool = new DkimPool({ size: 2 });
  });

  after(async () => {
    Worker.prototype.postMessage = originalPost;
    await pool.close();
  });

  it('signs concurrently with several keys, exactly as the single-thread signer does', async () => {
    const jobs = Array.from({ length: 40 }, (_, i) => {
      const key = i < 20 ? keyA : keyB; // each key's jobs spread over both workers
      return { key, message: message(i, key.domain) };
    });
    const headers = await Promise.all(jobs.map((job) => pool.sign(job.message, job.key, { now: NOW })));
    for (const [i, job] of jobs.entries()) {
      assert.equal(headers[i], dkimSign(job.message, job.key, { now: NOW }));
      const signed = Buffer.concat([Buffer.from(headers[i] as string), job.message]);
      assert.equal((await verify(signed, records)).result, 'pass', `message ${i}`);
    }
  });

  it('sends each key to each worker once, as PEM', () => {
    const withKey = sent.filter((request) => request.key);
    assert.equal(withKey.length, 4); // 2 keys x 2 workers
    for (const request of withKey) assert.match(request.key?.pem ?? '', /^-----BEGIN PRIVATE KEY-----/);
    assert.deepEqual(new Set(withKey.map((request) => request.keyId)), new Set(['key-a', 'key-b']));
  });

  it('rejects a job that cannot be signed and keeps working', async () => {
    const bad = { ...keyA, id: 'bad', selector: 'not a selector' };
    await assert.rejects(pool.sign(message(1, 'a.example'), bad), /not a DNS name/);
    const header = await pool.sign(message(2, 'a.example'), keyA, { now: NOW });
    assert.equal(header, dkimSign(message(2, 'a.example'), keyA, { now: NOW }));
  });

  it('sizes itself to the machine by default and refuses jobs once closed', async () => {
    const own = new DkimPool();
    assert.ok(own.size >= 1);
    const inFlight = Array.from({ length: 10 }, (_, i) => own.sign(message(i, 'a.example'), keyA));
    await own.close();
    const settled = await Promise.allSettled(inFlight);
    for (const result of settled) {
      if (result.status === 'rejected') assert.match(String(result.reason), /closed/);
    }
    await assert.rejects(own.sign(message(1, 'a.example'), keyA), /closed/);
  });
});
