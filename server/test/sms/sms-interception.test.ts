import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type SmppCarrier, startSmppCarrier } from '@herald/test-peers';
import { injector } from '../api-users/fixtures.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner, type SignedIn } from '../helpers/members.ts';
import { waitFor } from '../helpers/wait.ts';
import { type SmsReady, smsapi, smsReadyAccount } from './sms-fixtures.ts';

/**
 * Interception: numbers on the account's list (420), unsubscribed (430), the keyword filter (440)
 * and the global list filled from carrier results (500: 30 days, every account, 410) stop an SMS
 * before any carrier sees it, as a processing failure with its workererror event; each account
 * keeps its own lists.
 */
describe('SMS interception', () => {
  let t: TestApp;
  let carrier: SmppCarrier;
  let owner: SignedIn;
  let other: SignedIn;
  let ready: SmsReady;
  let otherReady: SmsReady;
  let call: ReturnType<typeof injector>;

  before(async () => {
    carrier = await startSmppCarrier({ accounts: { herald: 'secret' }, receiptDelayMs: 5 });
    t = await buildTestApp();
    call = injector(t);
    await t.core.smsCarriers.save({
      name: 'c',
      url: `smpp://127.0.0.1:${carrier.port}`,
      systemId: 'herald',
      password: 'secret',
    });
    await t.core.smsCarriers.addRoute({ carrier: 'c', country: 'CN' });
    owner = await createOwner(t, 'smsint_owner');
    other = await createOwner(t, 'smsint_other');
    ready = await smsReadyAccount(t, owner.ctx.accountId, 'smsint_user');
    otherReady = await smsReadyAccount(t, other.ctx.accountId, 'smsint_oth');
    t.core.smsDelivery.start();
  });
  after(async () => {
    await t?.close();
    await carrier?.close();
  });

  const send = async (who: SmsReady, phone: string, code = '1357') => {
    const res = await smsapi(t, 'send', who, {
      templateId: String(who.templateId),
      phone,
      vars: JSON.stringify({ code }),
    });
    assert.equal(res.body.statusCode, 200, res.body.message);
    return (res.body.info.smsIds as string[])[0] as string;
  };
  const settled = async (smsId: string) =>
    waitFor(`${smsId} settled`, async () => {
      const row = await t.core.database.db
        .selectFrom('sms_messages')
        .select(['id', 'status', 'status_code', 'reason'])
        .where('sms_id', '=', smsId)
        .executeTakeFirstOrThrow();
      return row.status === 'requesting' || row.status === 'waiting' ? undefined : row;
    });

  it('stops numbers on the account list, unsubscribed numbers and filtered keywords (420, 430, 440)', async () => {
    const added = await call('POST', '/v3/api/sms/interceptor', owner, {
      phones: '13800138801;13800138802',
      reason: 'asked us',
    });
    assert.equal(added.statusCode, 201, added.body);
    assert.equal(added.json().data.added, 2);
    await call('POST', '/v3/api/sms/unsubscribes', owner, { phones: '13800138803' });
    await call('POST', '/v3/api/sms/keywords', owner, { keyword: '2468' });

    const blocked = await settled(await send(ready, '13800138801'));
    assert.deepEqual(
      [blocked.status, blocked.status_code, blocked.reason],
      ['processing_failed', 420, 'asked us'],
    );
    const unsubscribed = await settled(await send(ready, '13800138803'));
    assert.equal(unsubscribed.status_code, 430);
    const filtered = await settled(await send(ready, '13800138804', '2468'));
    assert.deepEqual([filtered.status_code, filtered.reason], [440, 'keyword: 2468']);
    const events = await t.core.database.db
      .selectFrom('sms_events')
      .select('kind')
      .where('sms_message_id', '=', Number(blocked.id))
      .orderBy('id')
      .execute();
    assert.deepEqual(
      events.map((e) => e.kind),
      ['request', 'workererror'],
    );
    assert.equal(
      carrier.messages.filter((m) => m.destination.startsWith('861380013880')).length,
      0,
      'no carrier saw them',
    );

    // Another account's list and keywords are its own.
    const free = await settled(await send(otherReady, '13800138801', '2468'));
    assert.equal(free.status, 'delivered');
  });

  it('puts an empty number on the global list for 30 days, for every account (410)', async () => {
    carrier.script('8613800138900', { receipt: 'UNDELIV', err: '004' });
    const first = await settled(await send(ready, '13800138900'));
    assert.equal(first.status_code, 500);
    // The receipt settles the message first; the list learns from it right after.
    const global = await waitFor('the global entry', () =>
      t.core.database.db
        .selectFrom('sms_blocks')
        .selectAll()
        .where('phone', '=', '+8613800138900')
        .executeTakeFirst(),
    );
    assert.equal(Number(global.account_id), 0);
    const days = (Number(global.expires_at) - Date.now()) / 86_400_000;
    assert.ok(days > 29.9 && days <= 30, `expires in ${days} days`);
    const again = await settled(await send(otherReady, '13800138900'));
    assert.equal(again.status_code, 410);
  });

  it('lists, checks and deletes the account’s entries; another account’s are not found', async () => {
    const list = (await call('GET', '/v3/api/sms/interceptor', owner)).json();
    assert.equal(list.total, 2);
    assert.deepEqual(list.data.map((e: { phone: string }) => e.phone).sort(), [
      '+8613800138801',
      '+8613800138802',
    ]);
    const bad = await call('POST', '/v3/api/sms/interceptor', owner, { phones: '' }, 'zh-cn');
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().fields[0].message, '请填写1到200个手机号，用分号、逗号或换行隔开');
    const wrong = await call('POST', '/v3/api/sms/interceptor', owner, { phones: '123' });
    assert.equal(wrong.statusCode, 400);
    const id = list.data[0].id as number;
    assert.equal((await call('DELETE', `/v3/api/sms/interceptor/${id}`, other)).statusCode, 404);
    assert.equal((await call('DELETE', `/v3/api/sms/interceptor/${id}`, owner)).statusCode, 204);
    assert.equal((await call('GET', '/v3/api/sms/interceptor', owner)).json().total, 1);
    assert.equal((await call('GET', '/v3/api/sms/interceptor', other)).json().total, 0);
  });
});
