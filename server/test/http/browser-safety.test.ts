import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner, type SignedIn } from '../helpers/members.ts';

/**
 * What the browser is told on every response (a strict Content-Security-Policy, no framing, no
 * sniffing, no referrer, HSTS over HTTPS), and a state-changing console call made from another
 * site with the user's cookie is refused while the same call from the console goes through.
 */
describe('browser safety', () => {
  let t: TestApp;
  let owner: SignedIn;
  before(async () => {
    t = await buildTestApp({ env: { HERALD_PUBLIC_URL: 'https://herald.example' } });
    owner = await createOwner(t, 'safety_owner');
  });
  after(() => t.close());

  const labelNames = async () =>
    (
      await t.core.database.db
        .selectFrom('labels')
        .select('name')
        .where('account_id', '=', owner.ctx.accountId)
        .execute()
    ).map((r) => r.name);

  it('sends the security headers on the console, the console API and errors', async () => {
    for (const url of ['/', '/v3/api/userInfo', '/no/such/thing', '/apiv2/userinfo/get']) {
      const response = await t.app.inject({ method: 'GET', url });
      const csp = String(response.headers['content-security-policy']);
      assert.match(csp, /script-src 'self'(;|$)/, url);
      assert.match(csp, /frame-ancestors 'none'/, url);
      assert.match(csp, /object-src 'none'/, url);
      assert.doesNotMatch(csp, /unsafe-eval|script-src[^;]*unsafe-inline/, url);
      assert.equal(response.headers['x-content-type-options'], 'nosniff', url);
      assert.equal(response.headers['x-frame-options'], 'DENY', url);
      assert.equal(response.headers['referrer-policy'], 'no-referrer', url);
      assert.equal(response.headers['strict-transport-security'], undefined, `${url} over plain HTTP`);
    }
    const overHttps = await t.app.inject({
      method: 'GET',
      url: '/',
      headers: { 'x-forwarded-proto': 'https' }, // from the trusted proxy of the test setup
    });
    assert.match(String(overHttps.headers['strict-transport-security']), /max-age=\d+/);
  });

  it('serves a console page with no inline script', () => {
    const html = fs.readFileSync(path.join(t.core.config.consoleDir, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.ok(scripts.length > 0);
    for (const [, attributes, body] of scripts) {
      assert.match(attributes ?? '', /\bsrc=/);
      assert.equal(body?.trim(), '');
    }
  });

  it('refuses a cross-site form post with the cookie, and lets the console make the same call', async () => {
    const post = (headers: Record<string, string>, name: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v3/api/config/labels',
        cookies: { token: owner.token },
        headers: { 'content-type': 'application/json', lang: 'en', ...headers },
        payload: JSON.stringify({ name }),
      });
    for (const [headers, name] of [
      [{ origin: 'https://evil.example' }, 'evil1'],
      [{ origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }, 'evil2'],
      [{ 'sec-fetch-site': 'same-site' }, 'evil3'],
      [{ origin: 'null' }, 'evil4'],
    ] as const) {
      const refused = await post(headers, name);
      assert.equal(refused.statusCode, 403, JSON.stringify(headers));
      assert.equal(refused.json().code, 'COMMON_CROSS_SITE');
      assert.equal(refused.json().message, 'The request came from another site and was refused');
    }
    assert.deepEqual(await labelNames(), [], 'nothing was created from another site');

    const fromPublicUrl = await post(
      { origin: 'https://herald.example', 'sec-fetch-site': 'same-origin' },
      'ok1',
    );
    assert.equal(fromPublicUrl.statusCode, 201, fromPublicUrl.body);
    const sameHost = await post({ origin: 'http://localhost:80', host: 'localhost:80' }, 'ok2');
    assert.equal(sameHost.statusCode, 201, sameHost.body);
    const noOrigin = await post({}, 'ok3');
    assert.equal(noOrigin.statusCode, 201, 'a client that is not a browser sends no Origin');
    assert.deepEqual((await labelNames()).sort(), ['ok1', 'ok2', 'ok3']);
  });

  it('leaves the SendCloud API to programs, whatever Origin they send', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/apiv2/userinfo/get',
      headers: { origin: 'https://elsewhere.example', 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'apiUser=nobody&apiKey=wrong',
    });
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().statusCode, 40005, 'it reached the API (and failed on the key)');
  });
});
