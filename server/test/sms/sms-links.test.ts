import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type SmppCarrier, startSmppCarrier } from '@herald/test-peers';
import { injector } from '../api-users/fixtures.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner, type SignedIn } from '../helpers/members.ts';
import { waitFor } from '../helpers/wait.ts';
import { type SmsReady, smsapi, smsReadyAccount } from './sms-fixtures.ts';

const BASE = 'https://s.example.test';
const BROWSER = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';

/**
 * SMS link tracking end to end: a paid account turns it on, a template marked for tracking sends
 * its link as a short link of its own per number (what the carrier receives), a click on it
 * redirects to the link and is kept for that number, previews and scanners are machine clicks,
 * a forged code is a 404; free accounts cannot turn it on.
 */
describe('SMS short links and clicks', () => {
  let t: TestApp;
  let carrier: SmppCarrier;
  let call: ReturnType<typeof injector>;
  let owner: SignedIn;
  let ready: SmsReady;

  const textTo = async (phone: string) => {
    await waitFor(`the SMS to ${phone}`, () => carrier.messages.some((m) => m.destination === phone));
    return carrier.messages.find((m) => m.destination === phone)?.text ?? '';
  };
  const codeIn = (text: string) => new RegExp(`${BASE}/([0-9A-Za-z]+)`).exec(text)?.[1] ?? '';
  const visit = (code: string, userAgent = BROWSER, method: 'GET' | 'HEAD' = 'GET') =>
    t.app.inject({ method, url: `/s/${code}`, headers: { 'user-agent': userAgent } });

  before(async () => {
    carrier = await startSmppCarrier({ accounts: { herald: 'secret' }, receiptDelayMs: 5 });
    t = await buildTestApp({ env: { HERALD_SMS_SHORT_LINK_URL: BASE } });
    await t.core.smsCarriers.save({
      name: 'cmcc',
      url: `smpp://127.0.0.1:${carrier.port}`,
      systemId: 'herald',
      password: 'secret',
    });
    await t.core.smsCarriers.addRoute({ carrier: 'cmcc', country: 'CN' });
    owner = await createOwner(t, 'links_owner');
    ready = await smsReadyAccount(t, owner.ctx.accountId, 'links_user');
    await t.core.database.db
      .updateTable('sms_templates')
      .set({ content: '您的订单已发货，详情 https://shop.example.com/o?id=%code% 请查看。', track_links: 1 })
      .where('id', '=', ready.templateId)
      .execute();
    call = injector(t);
    t.core.smsDelivery.start();
  });
  after(async () => {
    await t?.close();
    await carrier?.close();
  });

  it('is for paid accounts only, in both languages', async () => {
    const refused = await call('PUT', '/v3/api/sms/shortLink', owner, { enabled: true }, 'zh-cn');
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().message, '该功能仅对付费用户开放');
    const view = (await call('GET', '/v3/api/sms/shortLink', owner)).json().data;
    assert.deepEqual(view, { enabled: false, paid: false, base: `${BASE}/` });
  });

  it('sends each number its own short link, and a click names that number', async () => {
    await t.core.database.db
      .updateTable('accounts')
      .set({ plan: 'paid' })
      .where('id', '=', ready.accountId)
      .execute();
    const on = await call('PUT', '/v3/api/sms/shortLink', owner, { enabled: true });
    assert.equal(on.json().data.enabled, true);
    await new Promise((resolve) => setTimeout(resolve, 5_100)); // the linker's settings cache

    const sent = await smsapi(t, 'sendx', ready, {
      templateId: String(ready.templateId),
      tos: JSON.stringify([
        { phone: '13800004441', vars: { code: '77' } },
        { phone: '13800004442', vars: { code: '88' } },
      ]),
    });
    assert.equal(sent.body.statusCode, 200, JSON.stringify(sent.body));
    const first = await textTo('8613800004441');
    const second = await textTo('8613800004442');
    assert.doesNotMatch(first, /shop\.example\.com/, 'the carrier never sees the long link');
    const [a, b] = [codeIn(first), codeIn(second)];
    assert.ok(a && b && a !== b, `${first} / ${second}`);
    assert.match(first, new RegExp(`详情 ${BASE}/${a} 请查看`));

    // A preview fetches at once; a person clicks later (the links are made older here).
    assert.equal((await visit(a)).headers.location, 'https://shop.example.com/o?id=77');
    await t.core.database.db
      .updateTable('sms_short_links')
      .set({ created_at: Date.now() - 60_000 })
      .execute();
    const person = await visit(a);
    assert.equal(person.statusCode, 302);
    assert.equal(person.headers.location, 'https://shop.example.com/o?id=77');
    assert.equal(
      (await visit(b, 'facebookexternalhit/1.1')).headers.location,
      'https://shop.example.com/o?id=88',
    );
    assert.equal((await visit(b, BROWSER, 'HEAD')).statusCode, 302);
    const forged = `${a.slice(0, -2)}${a.slice(-2) === 'zz' ? 'yy' : 'zz'}`;
    assert.equal((await visit(forged)).statusCode, 404);
    assert.equal((await visit('999999zz')).statusCode, 404);

    const now = Date.now();
    const clicks = (
      await call('GET', `/v3/api/sms/linkClicks?startTime=${now - 3600_000}&endTime=${now + 1000}`, owner)
    ).json().data;
    assert.equal(clicks.total, 4);
    const people = clicks.list.filter((c: { machine: boolean }) => !c.machine);
    assert.deepEqual(
      people.map((c: { phone: string; url: string }) => [c.phone, c.url]),
      [['+8613800004441', 'https://shop.example.com/o?id=77']],
    );
    const days = (
      await call('GET', `/v3/api/sms/clickDatas?startTime=${now - 86_400_000}&endTime=${now}`, owner)
    ).json().data as { clicks: number; uniquePhones: number; machine: number }[];
    const sum = (k: 'clicks' | 'uniquePhones' | 'machine') => days.reduce((n, d) => n + d[k], 0);
    assert.deepEqual([sum('clicks'), sum('uniquePhones'), sum('machine')], [1, 1, 3]);

    const stranger = await createOwner(t, 'links_stranger');
    const theirs = await call(
      'GET',
      `/v3/api/sms/linkClicks?startTime=${now - 3600_000}&endTime=${now + 1000}`,
      stranger,
    );
    assert.equal(theirs.json().data.total, 0);
  });

  it('leaves the links of an untracked template as they are', async () => {
    await t.core.database.db
      .updateTable('sms_templates')
      .set({ track_links: 0 })
      .where('id', '=', ready.templateId)
      .execute();
    await new Promise((resolve) => setTimeout(resolve, 5_100)); // the template cache
    await smsapi(t, 'send', ready, {
      templateId: String(ready.templateId),
      phone: '13800004443',
      vars: '{"code":"99"}',
    });
    assert.match(await textTo('8613800004443'), /详情 https:\/\/shop\.example\.com\/o\?id=99 请查看/);
  });
});
