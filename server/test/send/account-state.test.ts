import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SMTPServer } from 'smtp-server';
import { closeSmtp, listenSmtp } from '../../src/smtp/listen.ts';
import { submissionListeners } from '../../src/smtp/submission-server.ts';
import { submissionClient } from '../helpers/smtp-client.ts';
import { waitFor } from '../helpers/wait.ts';
import { type PipelineHarness, startPipeline } from '../mta/pipeline-harness.ts';
import { listen, postForm } from './send-client.ts';

/**
 * A suspended or frozen account sends nothing: /apiv2 and SMTP submission refuse it with a clear
 * code in the caller's language, and mail it had queued is held (not sent) until an operator
 * resumes the account, then goes out.
 */
describe('account state on every sending path', () => {
  let h: PipelineHarness;
  let base: string;
  const servers: SMTPServer[] = [];
  let smtpPort = 0;

  before(async () => {
    h = await startPipeline({ start: false, api: true });
    base = await listen(h.t);
    for (const listener of submissionListeners(h.t.core)) {
      const address = await listenSmtp(listener.server, 0, '127.0.0.1');
      servers.push(listener.server);
      if (listener.name === 'smtp-submission') smtpPort = address.port;
    }
  });
  after(async () => {
    await Promise.all(servers.map(closeSmtp));
    await h?.close();
  });

  const fields = () => ({
    apiUser: h.sender.apiUser,
    apiKey: h.sender.apiKey,
    from: `news@${h.sender.domain}`,
    to: 'someone@dest.test',
    subject: 'State',
    html: '<p>state</p>',
  });
  const smtpSend = () =>
    submissionClient(smtpPort, { user: h.sender.apiUser, pass: h.sender.apiKey }).sendMail({
      from: `news@${h.sender.domain}`,
      to: 'someone@dest.test',
      subject: 'State',
      text: 'state',
    });

  for (const [state, statusCode, zh, en] of [
    ['suspended', 40905, '账号已被停用，请联系客服', 'The account is suspended, please contact support'],
    [
      'frozen',
      40906,
      '账号已被冻结，暂时不能发送，请联系客服',
      'The account is frozen and cannot send for now, please contact support',
    ],
  ] as const) {
    it(`refuses a ${state} account over /apiv2 and SMTP, in the caller's language`, async () => {
      await h.t.core.accountStates.set({ accountId: h.sender.accountId }, state);
      try {
        const chinese = await postForm(base, 'mail/send', fields());
        assert.deepEqual([chinese.result, chinese.statusCode, chinese.message], [false, statusCode, zh]);
        const english = await postForm(base, 'mail/send', fields(), 'en');
        assert.deepEqual([english.result, english.statusCode, english.message], [false, statusCode, en]);
        await assert.rejects(smtpSend(), (error: { responseCode?: number; response?: string }) => {
          assert.equal(error.responseCode, 550);
          assert.match(error.response ?? '', /^550 5\.7\.1 /);
          assert.match(error.response ?? '', new RegExp(en.replace(/[.,]/g, '.')));
          return true;
        });
      } finally {
        await h.t.core.accountStates.set({ accountId: h.sender.accountId }, 'active');
      }
      const accepted = await postForm(base, 'mail/send', fields());
      assert.equal(accepted.result, true, 'active again: accepted');
    });
  }

  it('holds queued mail of a suspended account until it is resumed, then delivers it', async () => {
    const [emailId] = await h.send({ to: 'held@dest.test', subject: 'Held', html: '<p>held</p>' });
    assert.ok(emailId);
    await h.t.core.accountStates.set({ accountId: h.sender.accountId }, 'suspended');
    const before = h.mx.messages.length;
    h.t.core.delivery.start();
    const held = await h.waitForStatus(emailId, 'held');
    assert.equal(held.reason, 'account suspended');
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(h.mx.messages.filter((m) => m.rcptTo.includes('held@dest.test')).length, 0);

    const { released } = await h.t.core.accountStates.set({ accountId: h.sender.accountId }, 'active');
    assert.ok(released >= 1, `released ${released}`);
    await h.waitForStatus(emailId, 'delivered', 20_000);
    await waitFor('the held mail at the MX', () =>
      h.mx.messages.slice(before).some((m) => m.rcptTo.includes('held@dest.test')),
    );
  });
});
