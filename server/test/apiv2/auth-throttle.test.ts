import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SMTPServer } from 'smtp-server';
import { AUTH_FAILURE_LIMITS } from '../../src/core/api-users/api-user-auth.ts';
import { closeSmtp, listenSmtp } from '../../src/smtp/listen.ts';
import { submissionListeners } from '../../src/smtp/submission-server.ts';
import { createSender, type Sender } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { submissionClient } from '../helpers/smtp-client.ts';
import { awayFromWindowEnd } from '../helpers/wait.ts';

/**
 * Guessing API keys does not scale: failed tries are counted per client address and per API_USER,
 * and past the limit every try from that address (or for that API_USER) is refused, the right key
 * included, with SendCloud's frequency-limit code over /apiv2 and a 4xx over SMTP AUTH.
 */
describe('throttling failed API key checks', () => {
  let t: TestApp;
  let f: Sender;
  before(async () => {
    t = await buildTestApp();
    f = await createSender(t.core.database);
  });
  after(() => t.close());

  const call = async (apiKey: string, ip: string, apiUser = f.apiUser, lang = 'en') =>
    (
      await t.app.inject({
        method: 'POST',
        url: '/apiv2/label/list',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip, lang },
        payload: new URLSearchParams({ apiUser, apiKey }).toString(),
      })
    ).json() as { statusCode: number; message: string };

  it('refuses an address after its failed tries, the right key too, in the caller language', async () => {
    await awayFromWindowEnd(AUTH_FAILURE_LIMITS.windowMs);
    for (let i = 0; i < AUTH_FAILURE_LIMITS.perAddress; i++) {
      assert.equal((await call(`wrong-${i}`, '203.0.113.50')).statusCode, 40005);
    }
    const refused = await call(f.apiKey, '203.0.113.50');
    assert.equal(refused.statusCode, 50000);
    assert.match(refused.message, /^Too many failed authentications, please try again in \d+ minutes$/);
    assert.match((await call(f.apiKey, '203.0.113.50', f.apiUser, 'zh-cn')).message, /^认证失败次数过多/);
    const other = await call(f.apiKey, '198.51.100.50');
    assert.equal(other.statusCode, 200, `another address is not held back: ${JSON.stringify(other)}`);
  });

  it('refuses an API_USER tried too often from many addresses', async () => {
    const target = await createSender(t.core.database);
    await awayFromWindowEnd(AUTH_FAILURE_LIMITS.windowMs);
    for (let i = 0; i < AUTH_FAILURE_LIMITS.perApiUser; i++) {
      assert.equal((await call(`wrong-${i}`, `192.0.2.${i % 200}`, target.apiUser)).statusCode, 40005);
    }
    assert.equal((await call(target.apiKey, '198.51.100.77', target.apiUser)).statusCode, 50000);
  });

  it('answers 454 to SMTP AUTH after the failed tries of an address', async () => {
    const smtp = await buildTestApp();
    const sender = await createSender(smtp.core.database);
    const servers: SMTPServer[] = [];
    try {
      const listener = submissionListeners(smtp.core)[0]!;
      servers.push(listener.server);
      const { port } = await listenSmtp(listener.server, 0, '127.0.0.1');
      const verify = (pass: string) =>
        submissionClient(port, { user: sender.apiUser, pass })
          .verify()
          .then(
            () => 250,
            (error: { responseCode?: number }) => error.responseCode,
          );
      await awayFromWindowEnd(AUTH_FAILURE_LIMITS.windowMs);
      for (let i = 0; i < AUTH_FAILURE_LIMITS.perAddress; i++) assert.equal(await verify(`wrong-${i}`), 535);
      assert.equal(await verify(sender.apiKey), 454);
    } finally {
      await Promise.all(servers.map(closeSmtp));
      await smtp.close();
    }
  });
});
