import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSender, type Sender } from '../fixtures/factory.ts';
import { solvedCaptcha } from '../helpers/challenges.ts';
import { testDialect } from '../helpers/database.ts';
import { decodedBody, linksIn } from '../helpers/mail.ts';
import { type MailedApp, PUBLIC_URL, startMailedApp } from '../helpers/mailed-app.ts';
import { bearer, createOwner, type SignedIn } from '../helpers/members.ts';

const INBOX = 'readers.test';

/**
 * Double opt-in as a subscriber lives it: the form sends the confirmation mail as the
 * subscription's API_USER through Herald's MTA to the loopback MX, with the subscription's subject
 * and from; the address is not in the list until the mail's link is opened; the link lands on a
 * page saying so in both languages; an expired or altered link does nothing; an unsubscribed
 * address that confirms is subscribed again; a deleted subscription's link says it is gone.
 */
describe(`Double opt-in on ${testDialect}`, () => {
  let app: MailedApp;
  let owner: SignedIn;
  let f: Sender;
  let listId = 0;
  let publicId = '';
  let subscriptionId = 0;

  before(async () => {
    app = await startMailedApp({ domain: INBOX });
    const { t } = app;
    owner = await createOwner(t, 'optin_owner');
    f = await createSender(t.core.database, {
      accountId: owner.ctx.accountId,
      domainStatus: 'verified',
      emailType: 'batch',
    });
    await t.core.database.db
      .updateTable('accounts')
      .set({ plan: 'paid' })
      .where('id', '=', owner.ctx.accountId)
      .execute();
    listId = (
      await t.core.addressLists.createList(owner.ctx, {
        name: 'Readers',
        prefix: 'optin_readers',
        description: '',
      })
    ).id;
    const made = await t.app.inject({
      method: 'POST',
      url: '/v3/api/subInvite',
      headers: bearer(owner.token),
      payload: {
        name: 'Readers club',
        logoUrl: 'https://example.com/logo.png',
        subject: 'Confirm your subscription to Readers club',
        fromName: 'Readers club',
        fromAddress: `club@${f.domain}`,
        apiUser: f.apiUser,
        apiKey: f.apiKey,
        listId,
        confirm: true,
        displayMode: 'embedded',
        themeColor: '#226644',
      },
    });
    assert.equal(made.statusCode, 201, made.body);
    publicId = made.json().data.publicId;
    subscriptionId = made.json().data.id;
  });
  after(() => app?.close());

  const submit = async (email: string, lang = 'en') => {
    const { captchaId, captchaCode } = await solvedCaptcha(app.t.core, 'subInvite');
    return app.t.app.inject({
      method: 'POST',
      url: '/v3/access/subInvite/subscribe',
      headers: { 'accept-language': lang },
      payload: { id: publicId, email, name: 'Reader', captchaId, code: captchaCode },
    });
  };
  const members = async () =>
    (await app.t.core.addressLists.members(owner.ctx, { listId, offset: 0, limit: 100 })).list.map(
      (m) => m.address,
    );
  const linkIn = (raw: string) => {
    const link = linksIn(raw).find((l) => l.startsWith(`${PUBLIC_URL}/subscribe/confirm/`));
    assert.ok(link, 'a confirmation link in the mail');
    return link.slice(PUBLIC_URL.length);
  };
  const open = (path: string) => app.t.app.inject({ url: path });

  it('mails a confirmation and adds the address only when its link is opened', async () => {
    const address = `first@${INBOX}`;
    const sent = await submit(address, 'zh-cn');
    assert.deepEqual([sent.statusCode, sent.json().data], [200, { status: 'pending' }]);
    assert.ok(!(await members()).includes(address));

    const mail = await app.mailTo(address);
    assert.equal(mail.subject, 'Confirm your subscription to Readers club');
    assert.match(mail.raw, new RegExp(`^From: .*club@${f.domain.replace(/\./g, '\\.')}`, 'm'));
    assert.match(decodedBody(mail.raw), /您刚刚在「Readers club」提交了订阅申请/);
    const path = linkIn(mail.raw);
    assert.ok(!(await members()).includes(address), 'not a member before the click');

    const landed = await open(path);
    assert.equal(landed.statusCode, 200);
    assert.match(landed.body, /订阅成功/);
    assert.match(landed.body, /Subscription confirmed/);
    assert.match(landed.body, new RegExp(`${address} is now subscribed to &quot;Readers club&quot;`));
    assert.ok((await members()).includes(address));
    // The record of consent.
    const signup = await app.t.core.database.db
      .selectFrom('subscription_signups')
      .selectAll()
      .where('address', '=', address)
      .executeTakeFirstOrThrow();
    assert.equal(signup.status, 'confirmed');
    assert.ok(signup.confirmed_at !== null);
    // Opening it again changes nothing and still says so.
    assert.equal((await open(path)).statusCode, 200);
    assert.equal((await members()).filter((m) => m === address).length, 1);
  });

  it('does nothing for an altered or expired link', async () => {
    const address = `late@${INBOX}`;
    assert.equal((await submit(address)).statusCode, 200);
    const path = linkIn((await app.mailTo(address)).raw);
    const mac = path.slice(path.lastIndexOf('.') + 1);
    const altered = await open(
      `${path.slice(0, path.lastIndexOf('.') + 1)}${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`,
    );
    assert.equal(altered.statusCode, 400);
    assert.match(altered.body, /The confirmation link is invalid or has expired/);
    assert.match(altered.body, /确认链接无效或已过期/);

    const realNow = Date.now;
    Date.now = () => realNow() + 73 * 3_600_000;
    try {
      const expired = await open(path);
      assert.equal(expired.statusCode, 400);
    } finally {
      Date.now = realNow;
    }
    assert.ok(!(await members()).includes(address));
  });

  it('re-subscribes an unsubscribed address only through its confirmation', async () => {
    const address = `back@${INBOX}`;
    await app.t.core.suppression.recordUnsubscribe(owner.ctx, address, {});
    assert.deepEqual((await submit(address)).json().data, { status: 'pending' });
    const path = linkIn((await app.mailTo(address)).raw);
    assert.ok(!(await members()).includes(address));
    assert.equal((await open(path)).statusCode, 200);
    assert.ok((await members()).includes(address));
    const left = await app.t.core.database.db
      .selectFrom('suppression_entries')
      .select('id')
      .where('account_id', '=', owner.ctx.accountId)
      .where('address', '=', address)
      .where('list', '=', 'unsubscribe')
      .execute();
    assert.equal(left.length, 0, 'the confirmed consent lifts the unsubscribe entry');
  });

  it('sends one confirmation per address every few minutes, and none once deleted', async () => {
    const address = `twice@${INBOX}`;
    await submit(address);
    await submit(address);
    const path = linkIn((await app.mailTo(address)).raw);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(app.mx.messages.filter((m) => m.rcptTo.includes(address)).length, 1);

    const removed = await app.t.app.inject({
      method: 'DELETE',
      url: `/v3/api/subInvite/${subscriptionId}`,
      headers: bearer(owner.token),
    });
    assert.equal(removed.statusCode, 204);
    const gone = await open(path);
    assert.equal(gone.statusCode, 410);
    assert.match(gone.body, /This subscription is no longer available/);
    assert.ok(!(await members()).includes(address));
  });
});
