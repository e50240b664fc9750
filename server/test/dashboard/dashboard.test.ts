import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { statDay } from '@herald/shared';
import { apiv2, type Inject, injector } from '../api-users/fixtures.ts';
import { createDomain } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner, joinedMember, type SignedIn } from '../helpers/members.ts';

/**
 * The dashboard: a new account's beginner guide has nothing ticked; each step ticks when the real
 * thing appears (a verified sending domain, an API_USER made in the console, a test mail from the
 * console, a mail through the SendCloud-compatible API); today's figures and the trend come from
 * the statistics rollups.
 */
describe('dashboard', () => {
  let t: TestApp;
  let call: Inject;
  let owner: SignedIn;

  before(async () => {
    t = await buildTestApp();
    call = injector(t);
    owner = await createOwner(t, 'dash_owner');
  });
  after(() => t?.close());

  const ticked = async (who = owner) => {
    const res = await call('GET', '/v3/api/dashboard/guide', who);
    assert.equal(res.statusCode, 200, res.body);
    const { steps } = res.json().data as { steps: { key: string; done: boolean }[] };
    return steps.filter((s) => s.done).map((s) => s.key);
  };

  it('ticks each guide step as the account does it', async () => {
    assert.deepEqual(await ticked(), []);

    const unverified = (
      await createDomain(t.core.database, owner.ctx.accountId, {
        name: 'pending.dash.example',
        status: 'unverified',
      })
    ).id;
    assert.deepEqual(await ticked(), [], 'an unverified domain does not count');
    const domainId = (
      await createDomain(t.core.database, owner.ctx.accountId, {
        name: 'mail.dash.example',
        status: 'verified',
      })
    ).id;
    assert.ok(unverified !== domainId);
    assert.deepEqual(await ticked(), ['domain']);

    const created = await call('POST', '/v3/api/config/categories', owner, {
      name: 'dash_api_user',
      emailType: 'trigger',
      domainId,
    });
    assert.equal(created.statusCode, 201, created.body);
    const { apiUser, apiKey } = created.json().data as { apiUser: { id: number }; apiKey: string };
    assert.deepEqual(await ticked(), ['domain', 'apiUser']);

    const test = await call('POST', '/v3/api/mail/testSend/quick', owner, {
      apiUserId: apiUser.id,
      from: 'test@mail.dash.example',
      to: 'someone@example.org',
      subject: 'Test',
      html: '<p>Test</p>',
    });
    assert.equal(test.statusCode, 201, test.body);
    assert.deepEqual(await ticked(), ['testMail', 'domain', 'apiUser']);

    const sent = await apiv2(t, 'mail/send', {
      apiUser: 'dash_api_user',
      apiKey,
      from: 'news@mail.dash.example',
      to: 'a@example.org;b@example.org',
      subject: 'Hello',
      html: '<p>Hi</p>',
    });
    assert.equal(sent.result, true, sent.message);
    assert.deepEqual(await ticked(), ['testMail', 'domain', 'apiUser', 'integrate']);

    const other = await createOwner(t, 'dash_other');
    assert.deepEqual(await ticked(other), [], "another account's state is not this one's");
  });

  it("shows today's figures and a 7 or 30 day trend from the rollups", async () => {
    while ((await t.core.statistics.rollUp(1000)) > 0);
    const res = await call('GET', '/v3/api/dashboard/overview?days=30', owner);
    assert.equal(res.statusCode, 200, res.body);
    const data = res.json().data;
    assert.equal(data.series.length, 30);
    assert.equal(data.series[29].day, statDay(Date.now()));
    assert.equal(data.today.requested, 3, 'one test mail and two API recipients');
    assert.equal(typeof data.reputation.score, 'number');
    assert.deepEqual(data.alerts, { addresses: [], domains: [] });
    assert.equal((await call('GET', '/v3/api/dashboard/overview', owner)).json().data.series.length, 7);
    assert.equal((await call('GET', '/v3/api/dashboard/overview?days=9', owner)).statusCode, 400);
  });

  it('needs the dashboard permission', async () => {
    const member = await joinedMember(t, owner, 'dash_member', { type: 'custom', levels: { 11: 'full' } });
    assert.equal((await call('GET', '/v3/api/dashboard/guide', member)).statusCode, 403);
    assert.equal((await call('GET', '/v3/api/dashboard/guide', null)).statusCode, 401);
  });
});
