import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { redactUrl } from '../../src/logger.ts';
import { createSender } from '../fixtures/factory.ts';
import type { TestApp } from '../helpers/app.ts';
import { humanAnswers, passSlider, solvedCaptcha } from '../helpers/challenges.ts';
import { linksIn } from '../helpers/mail.ts';
import { type MailedApp, startMailedApp } from '../helpers/mailed-app.ts';

/**
 * Nothing that works as a credential reaches the log: real flows (sign-up and its activation link,
 * login, a password reset link, /apiv2 calls with the key in the query string) run against an app
 * whose every log line is captured at debug level, then the captured text is searched for every
 * secret the flows handed out.
 */
describe('secrets stay out of the log', () => {
  let mailed: MailedApp;
  let t: TestApp;
  let mailTo: MailedApp['mailTo'];
  const lines: string[] = [];

  before(async () => {
    mailed = await startMailedApp({
      domain: 'example.com',
      env: { HERALD_LOG_LEVEL: 'debug' },
      logDestination: { write: (line) => void lines.push(line) },
    });
    ({ t, mailTo } = mailed);
  });
  after(() => mailed.close());

  const form = (url: string, fields: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', lang: 'en' },
      payload: new URLSearchParams(fields).toString(),
    });

  it('redacts keys and tokens in URLs, keeping the rest', () => {
    assert.equal(
      redactUrl('/apiv2/mail/send?apiUser=u1&apiKey=s3cr3t&to=a%40b.c'),
      '/apiv2/mail/send?apiUser=u1&apiKey=[redacted]&to=a%40b.c',
    );
    assert.equal(redactUrl('/resetPassword?token=abc&lang=en'), '/resetPassword?token=[redacted]&lang=en');
    assert.equal(redactUrl('/unsubscribe/abc.def?x=1'), '/unsubscribe/[redacted]?x=1');
    assert.equal(redactUrl('/v3/api/labels'), '/v3/api/labels');
  });

  it('logs none of the secrets real flows handed out', async () => {
    const secrets: Record<string, string> = {};

    // Sign-up: the activation link's token, used as the mail gave it.
    const signUp = {
      userName: 'quiet_ada',
      password: 'Signup#2026',
      confirmPassword: 'Signup#2026',
      email: 'quiet_ada@example.com',
      phone: '13912345678',
      agreement: 'on',
    };
    const registered = await form('/v3/access/register', {
      ...signUp,
      ...(await humanAnswers(t.core, 'register')),
    });
    assert.equal(registered.statusCode, 201, registered.body);
    const activation = new URL(
      linksIn((await mailTo('quiet_ada@example.com')).raw).find((l) => l.includes('regConfirm'))!,
    );
    secrets.activation = activation.searchParams.get('token')!;
    assert.equal(
      (await t.app.inject({ method: 'GET', url: `${activation.pathname}${activation.search}` })).statusCode,
      302,
    );

    // Login: the session token, then used by the console's header and cookie.
    const login = await form('/v3/oauth/token', {
      username: 'quiet_ada',
      password: signUp.password,
      sliderToken: await passSlider(t.core),
    });
    secrets.session = login.json().data.token;
    secrets.password = signUp.password;
    await t.app.inject({
      method: 'GET',
      url: '/v3/api/userInfo',
      headers: { authorization: `Bearer ${secrets.session}` },
    });
    await t.app.inject({
      method: 'GET',
      url: '/v3/api/userInfo',
      cookies: { token: secrets.session as string },
    });

    // A password reset: the link's token, on the console page and on the reset call.
    await form('/v3/access/password/forget', {
      email: signUp.email,
      ...(await solvedCaptcha(t.core, 'password')),
    });
    const reset = new URL(
      linksIn((await mailTo('quiet_ada@example.com', 2)).raw).find((l) => l.includes('resetPassword'))!,
    );
    secrets.reset = reset.searchParams.get('token')!;
    await t.app.inject({ method: 'GET', url: `${reset.pathname}${reset.search}` });
    await form('/v3/access/password/reset', {
      token: secrets.reset,
      password: 'Reset#2026',
      confirmPassword: 'Reset#2026',
    });

    // /apiv2 with the key in the query string, right and wrong.
    const sender = await createSender(t.core.database);
    secrets.apiKey = sender.apiKey;
    await t.app.inject({
      method: 'GET',
      url: `/apiv2/userinfo/get?apiUser=${sender.apiUser}&apiKey=${sender.apiKey}`,
    });
    await t.app.inject({
      method: 'POST',
      url: `/apiv2/mail/send?apiUser=${sender.apiUser}&apiKey=${sender.apiKey}x`,
    });

    const log = lines.join('');
    assert.ok(log.includes('/apiv2/userinfo/get'), 'the requests were logged');
    for (const [name, secret] of Object.entries(secrets)) {
      assert.ok(secret && secret.length >= 8, `${name} was handed out`);
      assert.ok(!log.includes(secret), `the ${name} appears in the log`);
      assert.ok(!log.includes(encodeURIComponent(secret)), `the ${name} appears in the log, URL-encoded`);
    }
  });
});
