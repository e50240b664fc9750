import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { awayFromWindowEnd } from '../helpers/wait.ts';

/** The public account calls have a per-IP allowance; past it they answer 429 with Retry-After. */
describe('rate limits on public account calls', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it('limits availability checks per client address', async () => {
    const check = (ip: string) =>
      t.app.inject({
        method: 'GET',
        url: '/v3/access/register/checkUserName?userName=someone_new',
        headers: { 'x-forwarded-for': ip, lang: 'en' },
      });
    await awayFromWindowEnd(60_000);
    for (let i = 0; i < 60; i++) assert.equal((await check('203.0.113.9')).statusCode, 200);
    const limited = await check('203.0.113.9');
    assert.equal(limited.statusCode, 429);
    assert.equal(limited.json().code, 'COMMON_RATE_LIMITED');
    assert.ok(Number(limited.headers['retry-after']) > 0);
    assert.equal((await check('198.51.100.9')).statusCode, 200, 'another address has its own allowance');
  });

  it('limits password-reset mails per client address', async () => {
    const forget = () =>
      t.app.inject({
        method: 'POST',
        url: '/v3/access/password/forget',
        headers: { 'x-forwarded-for': '203.0.113.10', 'content-type': 'application/json' },
        payload: { email: 'nobody@example.com' },
      });
    const codes = [];
    await awayFromWindowEnd(10 * 60_000);
    for (let i = 0; i < 11; i++) codes.push((await forget()).statusCode);
    assert.deepEqual(
      codes.slice(0, 10),
      Array(10).fill(400),
      'refused for lack of an image code, but counted',
    );
    assert.equal(codes[10], 429);
  });
});
