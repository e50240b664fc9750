import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PERMISSIONS } from '@herald/shared';
import { type DnsServer, startDnsServer } from '@herald/test-peers';
import { apiv2, type Inject, injector } from '../api-users/fixtures.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { joinedMember } from '../helpers/members.ts';
import { createQueueAccount, type QueueAccount } from '../queues/queue-fixtures.ts';
import { type Receiver, signatureValid, startReceiver } from './receiver.ts';

/**
 * Webhook configuration through the console API (`/config/webhooks`) and SendCloud's
 * `webhook/*`: the URL and event rules in both languages, the probe on save (a real POST to a
 * loopback receiver that must answer 200), app keys, test pushes, tenancy, and the SSRF guard of
 * a deployment that does not allow private addresses.
 */
describe('webhook configuration', () => {
  let t: TestApp;
  let call: Inject;
  let a: QueueAccount;
  let b: QueueAccount;
  let receiver: Receiver;

  before(async () => {
    t = await buildTestApp({ env: { HERALD_WEBHOOK_ALLOW_PRIVATE: '1' } });
    call = injector(t);
    a = await createQueueAccount(t, 'hooks_a');
    b = await createQueueAccount(t, 'hooks_b');
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver.close();
    await t.close();
  });

  const add = (body: object, lang = 'en', who = a) =>
    call('POST', '/v3/api/config/webhooks', who.owner, body, lang);

  it('refuses a URL that is not http(s) and an empty event list, in both languages', async () => {
    for (const [lang, message] of [
      ['en', 'The URL must begin with http:// or https://, e.g. https://example.com/hook'],
      ['zh-cn', 'URL必须以http://或https://开头，例如 https://example.com/hook'],
    ] as const) {
      const res = await add({ url: 'ftp://example.com/hook', events: ['deliver'] }, lang);
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(res.json().fields[0], { field: 'url', message, rule: 'webhookUrlFormat' });
    }
    const empty = await add({ url: receiver.url, events: [] });
    assert.equal(empty.statusCode, 400);
    assert.equal(empty.json().fields[0].message, 'Choose at least one event');
    const unknown = await add({ url: receiver.url, events: ['bounce'] });
    assert.equal(unknown.statusCode, 400);
    assert.equal(receiver.pushes.length, 0, 'nothing is probed before the form is valid');
  });

  it('probes the URL on save: a receiver that does not answer 200 is refused with 40707', async () => {
    receiver.respond = () => 500;
    const res = await add({ url: receiver.url, events: ['deliver'] });
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().code, 'WEBHOOK_URL_TEST_FAILED');
    assert.match(res.json().message, /HTTP 500/);
    assert.equal(receiver.pushes.length, 1, 'the probe reached the receiver');
    receiver.respond = () => 200;

    const closed = await add({ url: 'http://127.0.0.1:1/hook', events: ['deliver'] }, 'zh-cn');
    assert.equal(closed.statusCode, 400);
    assert.match(closed.json().message, /^url测试失败/);
    assert.equal((await call('GET', '/v3/api/config/webhooks', a.owner)).json().data.length, 0);
  });

  it('adds a webhook with a generated app key; the probe is signed with it; it is listed with its events', async () => {
    const key = await call('POST', '/v3/api/config/webhooks/appKey', a.owner, {});
    assert.equal(key.statusCode, 200);
    const appKey = key.json().data.appKey as string;
    assert.match(appKey, /^[A-Za-z0-9]{32}$/);
    receiver.pushes.length = 0;
    const res = await add({
      url: receiver.url,
      events: ['deliver', 'request'],
      apiUserId: a.apiUserId,
      appKey,
    });
    assert.equal(res.statusCode, 201, res.body);
    const probe = receiver.pushes[0];
    assert.ok(probe, 'the probe arrived');
    assert.match(probe.contentType, /^application\/x-www-form-urlencoded/);
    assert.equal(probe.fields.test, 'true');
    assert.equal(probe.fields.apiUser, a.apiUser);
    assert.ok(signatureValid(probe.fields, appKey), 'the probe carries a valid signature');

    const list = (await call('GET', '/v3/api/config/webhooks', a.owner)).json().data;
    assert.equal(list.length, 1);
    assert.deepEqual(
      {
        url: list[0].url,
        events: list[0].events,
        apiUserName: list[0].apiUserName,
        appKey: list[0].appKey,
        status: list[0].status,
      },
      { url: receiver.url, events: ['request', 'deliver'], apiUserName: a.apiUser, appKey, status: 'normal' },
    );
    const stored = await t.core.database.db
      .selectFrom('webhooks')
      .select('app_key_sealed')
      .executeTakeFirstOrThrow();
    assert.ok(
      stored.app_key_sealed && !stored.app_key_sealed.includes(appKey),
      'the app key is stored sealed',
    );

    const again = await add({ url: receiver.url, events: ['open'], apiUserId: a.apiUserId });
    assert.equal(again.statusCode, 422);
    assert.equal(again.json().code, 'WEBHOOK_URL_EXISTS');
    const forAll = await add({ url: receiver.url, events: ['open'] });
    assert.equal(forAll.statusCode, 201, 'the same URL for all API_USERs is another webhook');
    const byName = await add({ url: `http://localhost:${receiver.port}/named`, events: ['click'] });
    assert.equal(byName.statusCode, 201, `a host name resolved by the system resolver: ${byName.body}`);
    assert.equal(receiver.pushes.at(-1)?.path, '/named');
    await call('DELETE', `/v3/api/config/webhooks/${byName.json().data.id}`, a.owner);
  });

  it('test pushes a signed sample and reports the status; edit, regenerate the key, delete', async () => {
    const [hook] = (await call('GET', '/v3/api/config/webhooks', a.owner)).json().data;
    receiver.pushes.length = 0;
    const test = await call('POST', `/v3/api/config/webhooks/test/${hook.id}`, a.owner, {});
    assert.equal(test.statusCode, 200);
    assert.equal(test.json().data.ok, true);
    assert.equal(test.json().data.status, 200);
    assert.ok(signatureValid(receiver.pushes[0]?.fields ?? {}, hook.appKey));

    receiver.respond = () => 503;
    const failing = await call('POST', `/v3/api/config/webhooks/test/${hook.id}`, a.owner, {});
    assert.deepEqual([failing.json().data.ok, failing.json().data.status], [false, 503]);
    receiver.respond = () => 200;

    const edited = await call('PATCH', `/v3/api/config/webhooks/${hook.id}`, a.owner, {
      url: hook.url,
      events: ['open', 'click'],
      apiUserId: a.apiUserId,
    });
    assert.equal(edited.statusCode, 200, edited.body);
    assert.deepEqual(edited.json().data.events, ['open', 'click']);
    assert.equal(edited.json().data.appKey, hook.appKey, 'an edit without appKey keeps the key');

    const regenerated = await call('POST', '/v3/api/config/webhooks/appKey', a.owner, { id: hook.id });
    const fresh = (await call('GET', `/v3/api/config/webhooks/${hook.id}`, a.owner)).json().data;
    assert.equal(fresh.appKey, regenerated.json().data.appKey);
    assert.notEqual(fresh.appKey, hook.appKey);

    const refreshed = await call('POST', `/v3/api/config/webhooks/refresh/${hook.id}`, a.owner, {});
    assert.equal(refreshed.json().data.status, 'normal');
  });

  it("another account's webhook is not found; a member without code 13 is refused", async () => {
    const [hook] = (await call('GET', '/v3/api/config/webhooks', a.owner)).json().data;
    for (const [method, url, body] of [
      ['GET', `/v3/api/config/webhooks/${hook.id}`, undefined],
      ['PATCH', `/v3/api/config/webhooks/${hook.id}`, { url: receiver.url, events: ['open'] }],
      ['DELETE', `/v3/api/config/webhooks/${hook.id}`, undefined],
      ['POST', `/v3/api/config/webhooks/test/${hook.id}`, {}],
      ['POST', `/v3/api/config/webhooks/refresh/${hook.id}`, {}],
      ['GET', `/v3/api/config/webhooks/${hook.id}/deliveries`, undefined],
      ['POST', `/v3/api/config/webhooks/${hook.id}/deliveries/1/replay`, {}],
    ] as const) {
      const res = await call(method, url, b.owner, body);
      assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
    }
    const other = await add({ url: receiver.url, events: ['deliver'], apiUserId: a.apiUserId }, 'en', b);
    assert.equal(other.statusCode, 400, "another account's API_USER cannot be a target");
    assert.equal(other.json().code, 'WEBHOOK_CATEGORY_INVALID');
    assert.equal((await call('GET', '/v3/api/config/webhooks', b.owner)).json().data.length, 0);

    const sender = await joinedMember(t, a.owner, 'hooks_sendonly', {
      type: 'custom',
      levels: { [PERMISSIONS.EMAIL_SEND]: 'full' },
    });
    assert.equal((await call('GET', '/v3/api/config/webhooks', sender)).statusCode, 403);
    assert.equal((await call('POST', `/v3/api/config/webhooks/test/${hook.id}`, sender, {})).statusCode, 403);

    const removed = await call('DELETE', `/v3/api/config/webhooks/${hook.id}`, a.owner);
    assert.equal(removed.statusCode, 204);
    assert.equal((await call('GET', `/v3/api/config/webhooks/${hook.id}`, a.owner)).statusCode, 404);
  });

  it('SendCloud webhook/add and webhook/list with numeric event codes and 407xx codes', async () => {
    const creds = { apiUser: b.apiUser, apiKey: b.apiKey };
    const added = await apiv2(t, 'webhook/add', {
      ...creds,
      url: receiver.url,
      categoryName: b.apiUser,
      event: '1,18',
    });
    assert.equal(added.result, true, added.message);
    assert.deepEqual([added.info.data.event, added.info.data.categoryName], ['18,1', b.apiUser]);

    const listed = await apiv2(t, 'webhook/list', creds);
    assert.equal(listed.info.count, 1);
    assert.deepEqual(
      { url: listed.info.dataList[0].url, event: listed.info.dataList[0].event },
      { url: receiver.url, event: '18,1' },
    );
    assert.equal((await apiv2(t, 'webhook/list', { ...creds, event: '11' })).info.count, 0);

    const codes = async (fields: Record<string, string>) =>
      (await apiv2(t, 'webhook/add', { ...creds, ...fields })).statusCode;
    assert.equal(await codes({ url: receiver.url, event: '1' }), 40701);
    assert.equal(await codes({ url: receiver.url, categoryName: 'nobody_here', event: '1' }), 40702);
    assert.equal(await codes({ url: receiver.url, categoryName: 'all' }), 40703);
    assert.equal(await codes({ url: receiver.url, categoryName: 'all', event: '1,99' }), 40704);
    assert.equal(await codes({ categoryName: 'all', event: '1' }), 40705);
    assert.equal(await codes({ url: 'mailto:x@example.com', categoryName: 'all', event: '1' }), 40706);
    assert.equal(await codes({ url: receiver.url, categoryName: b.apiUser, event: '4' }), 40708);
    receiver.respond = () => 404;
    assert.equal(await codes({ url: `${receiver.url}/x`, categoryName: 'all', event: '1' }), 40707);
    receiver.respond = () => 200;

    const updated = await apiv2(t, 'webhook/update', {
      ...creds,
      url: receiver.url,
      categoryName: b.apiUser,
      newEvent: '11',
    });
    assert.equal(updated.result, true, updated.message);
    const both = await apiv2(t, 'webhook/update', {
      ...creds,
      url: receiver.url,
      categoryName: b.apiUser,
      newEvent: '1',
      newCategoryName: 'all',
    });
    assert.equal(both.statusCode, 40712);
    assert.equal((await apiv2(t, 'webhook/list', creds)).info.dataList[0].event, '11');
    const deleted = await apiv2(t, 'webhook/delete', {
      ...creds,
      url: receiver.url,
      categoryName: b.apiUser,
    });
    assert.equal(deleted.result, true);
    assert.equal(
      (await apiv2(t, 'webhook/delete', { ...creds, url: receiver.url, categoryName: b.apiUser })).statusCode,
      40709,
    );
  });
});

describe('webhook URLs in a deployment without HERALD_WEBHOOK_ALLOW_PRIVATE', () => {
  let t: TestApp;
  let dns: DnsServer;
  let a: QueueAccount;
  let receiver: Receiver;

  before(async () => {
    dns = await startDnsServer();
    dns.set('inside.hooks.test', 'A', ['192.168.10.5']);
    dns.set('loop.hooks.test', 'A', ['127.0.0.1']);
    t = await buildTestApp({ env: { HERALD_DNS_SERVERS: dns.address } });
    a = await createQueueAccount(t, 'hooks_ssrf');
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver.close();
    await t.close();
    await dns.close();
  });

  it('refuses loopback, private, link-local, CGNAT and unique-local addresses, literal or resolved', async () => {
    const port = receiver.port;
    for (const url of [
      receiver.url,
      `http://localhost:${port}/hook`,
      'http://10.1.2.3/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://100.64.0.1/hook',
      'http://[::1]/hook',
      'http://[fd00::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://inside.hooks.test/hook',
      `http://loop.hooks.test:${port}/hook`,
    ]) {
      const res = await injector(t)('POST', '/v3/api/config/webhooks', a.owner, { url, events: ['deliver'] });
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
      if (!url.includes('localhost')) assert.equal(res.json().code, 'WEBHOOK_URL_REFUSED', url);
    }
    assert.equal(receiver.pushes.length, 0, 'no request left for an internal address');
  });
});
