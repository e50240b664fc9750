import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import nodemailer from 'nodemailer';
import type { SMTPServer } from 'smtp-server';
import { createInboundServer } from '../../src/smtp/inbound-server.ts';
import { closeSmtp, listenSmtp } from '../../src/smtp/listen.ts';
import { injector } from '../api-users/fixtures.ts';
import { createDomain } from '../fixtures/factory.ts';
import { type MailedApp, startMailedApp } from '../helpers/mailed-app.ts';
import { createOwner, type SignedIn } from '../helpers/members.ts';
import { waitFor } from '../helpers/wait.ts';
import { type Receiver, startReceiver } from '../webhooks/receiver.ts';

/**
 * Receive routes end to end: mail from an outside client (nodemailer) to Herald's inbound MX for
 * an account's verified domain is matched by its address, posted as SendCloud's `route` push to a
 * loopback HTTP receiver, or forwarded through Herald's MTA to a mailbox (a loopback MX) that first
 * proved itself with the code it was sent; unmatched addresses get 550.
 */
describe('receive routes', () => {
  let app: MailedApp;
  let inbound: SMTPServer;
  let port = 0;
  let receiver: Receiver;
  let call: ReturnType<typeof injector>;
  let owner: SignedIn;
  let domain = '';

  const deliver = (to: string, subject: string) =>
    nodemailer
      .createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, name: 'mx.sender.test' })
      .sendMail({
        from: 'Customer Zhang <zhang@sender.test>',
        to,
        subject,
        text: '你好，我的订单什么时候到？',
        html: '<p>你好，我的订单什么时候到？</p>',
      });

  before(async () => {
    app = await startMailedApp({
      domain: 'inbox.test',
      env: { HERALD_WEBHOOK_ALLOW_PRIVATE: '1', HERALD_WEBHOOK_POLL_MS: '25' },
    });
    receiver = await startReceiver('/inbound');
    inbound = createInboundServer(app.t.core);
    port = (await listenSmtp(inbound, 0, '127.0.0.1')).port;
    call = injector(app.t);
    owner = await createOwner(app.t, 'routes_owner');
    domain = (await createDomain(app.t.core.database, owner.ctx.accountId, { status: 'usable' })).name;
    app.t.core.webhookDispatcher.start();
  });
  after(async () => {
    await closeSmtp(inbound);
    await app?.close();
    await receiver?.close();
  });

  it('refuses a domain the account has not verified, and a mailbox without its code', async () => {
    const foreign = await call(
      'POST',
      '/v3/api/config/routes',
      owner,
      {
        domain: 'not-mine.example.com',
        expression: 'support',
        target: 'url',
        url: `http://127.0.0.1:${receiver.port}/inbound`,
      },
      'zh-cn',
    );
    assert.equal(foreign.statusCode, 422);
    assert.match(foreign.json().message, /不是您已验证通过的域名/);
    const noCode = await call('POST', '/v3/api/config/routes', owner, {
      domain,
      expression: 'sales',
      target: 'email',
      email: 'boss@inbox.test',
      verifyCode: '000000',
    });
    assert.equal(noCode.statusCode, 422);
    assert.equal(noCode.json().message, 'The verification code is wrong or has expired; ask for a new one');
  });

  it('posts a routed mail to the URL as the route push, and refuses addresses no route takes', async () => {
    const created = await call('POST', '/v3/api/config/routes', owner, {
      domain,
      expression: 'support',
      target: 'url',
      url: `http://127.0.0.1:${receiver.port}/inbound`,
    });
    assert.equal(created.statusCode, 201, created.body);
    await assert.rejects(deliver(`nobody@${domain}`, 'Lost'), /550/);

    const sent = await deliver(`support-cn@${domain}`, '订单咨询');
    assert.match(sent.response, /^250/);
    await waitFor('the route push', () => receiver.pushes.some((p) => p.fields.event === 'route'));
    const push = receiver.pushes.find((p) => p.fields.event === 'route')?.fields ?? {};
    assert.equal(push.message, 'mx route');
    assert.equal(push.from, 'zhang@sender.test');
    assert.equal(push.fromname, 'Customer Zhang');
    assert.equal(push.to, `support-cn@${domain}`);
    assert.equal(push.subject, '订单咨询');
    assert.equal(push.text?.trim(), '你好，我的订单什么时候到？');
    assert.match(push.html ?? '', /<p>你好/);
    assert.match(push.raw_message ?? '', /Subject: =\?UTF-8\?/);
    assert.ok(push.signature && push.token && push.timestamp);
  });

  it('forwards to a mailbox that proved itself with the code it was sent', async () => {
    const asked = await call('POST', '/v3/api/config/routes/verifyCode', owner, { email: 'boss@inbox.test' });
    assert.equal(asked.statusCode, 200, asked.body);
    const codeMail = await app.mailTo('boss@inbox.test');
    const code = /(\d{6})/.exec(String(codeMail.raw))?.[1];
    assert.ok(code);
    const again = await call('POST', '/v3/api/config/routes/verifyCode', owner, { email: 'boss@inbox.test' });
    assert.equal(again.statusCode, 429);

    const created = await call('POST', '/v3/api/config/routes', owner, {
      domain,
      match: 'pattern',
      expression: 'order-*',
      target: 'email',
      email: 'boss@inbox.test',
      verifyCode: code,
    });
    assert.equal(created.statusCode, 201, created.body);
    await deliver(`order-778@${domain}`, 'Where is order 778');
    const forwarded = await app.mailTo('boss@inbox.test', 2);
    const text = String(forwarded.raw);
    assert.match(text, /Subject: Fwd: Where is order 778/);
    assert.match(text, /zhang@sender\.test/);

    const list = (await call('GET', '/v3/api/config/routes', owner)).json().data as {
      id: number;
      target: string;
    }[];
    assert.equal(list.length, 2);
    const stranger = await createOwner(app.t, 'routes_stranger');
    assert.equal((await call('DELETE', `/v3/api/config/routes/${list[0]?.id}`, stranger)).statusCode, 404);
    assert.equal((await call('DELETE', `/v3/api/config/routes/${list[0]?.id}`, owner)).statusCode, 204);
    await new Promise((resolve) => setTimeout(resolve, 5_100)); // the inbound MX's route cache
    await assert.rejects(deliver(`support@${domain}`, 'Gone'), /550/);
  });
});
