import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AppError } from '@herald/shared';
import { type SmppCarrier, startSmppCarrier } from '@herald/test-peers';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner } from '../helpers/members.ts';
import { type SmsReady, smsapi, smsReadyAccount } from './sms-fixtures.ts';

/**
 * International SMS per country: the operator's prices and sender rules, the public price query
 * (up to five countries, in the reader's language, without a login), and the sender id an
 * international SMS reaches the carrier with: a name where the country takes names, the service
 * code and the account's extension elsewhere.
 */
describe('international SMS prices and sender rules', () => {
  let t: TestApp;
  let carrier: SmppCarrier;
  let ready: SmsReady;

  const query = (countries: string, lang = 'en') =>
    t.app.inject({
      method: 'GET',
      url: `/v3/api/public/smsPrices?countries=${countries}`,
      headers: { lang },
    });

  before(async () => {
    carrier = await startSmppCarrier({ accounts: { herald: 'secret' }, receiptDelayMs: 5 });
    t = await buildTestApp();
    await t.core.smsCarriers.save({
      name: 'world',
      url: `smpp://127.0.0.1:${carrier.port}`,
      systemId: 'herald',
      password: 'secret',
      sourceAddr: '10690001',
    });
    await t.core.smsCarriers.addRoute({ carrier: 'world', country: '*' });
    const owner = await createOwner(t, 'prices_owner');
    ready = await smsReadyAccount(t, owner.ctx.accountId, 'prices_user');
    await t.core.database.db.updateTable('sms_signs').set({ sign_type: 'international' }).execute();
    await t.core.database.db
      .updateTable('sms_templates')
      .set({ region: 'international', content: 'Your code is %code%.' })
      .where('id', '=', ready.templateId)
      .execute();
    t.core.smsDelivery.start();
  });
  after(async () => {
    await t?.close();
    await carrier?.close();
  });

  it('keeps the operator prices and answers the public query for up to five countries', async () => {
    await t.core.smsPrices.set({
      country: 'us',
      priceMilli: 350,
      senderRule: 'alphanumeric',
      senderId: 'Herald',
    });
    await t.core.smsPrices.set({ country: 'GB', priceMilli: 420, senderRule: 'numeric' });
    await assert.rejects(
      t.core.smsPrices.set({ country: 'FR', priceMilli: 400, senderRule: 'alphanumeric' }),
      (e: unknown) => e instanceof AppError && e.code === 'SMS_SENDER_ID_REQUIRED',
    );

    const res = await query('US,gb,JP');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(
      res
        .json()
        .data.map((p: { country: string; dialCode: string; price: string | null }) => [
          p.country,
          p.dialCode,
          p.price,
        ]),
      [
        ['US', '+1', '0.350'],
        ['GB', '+44', '0.420'],
        ['JP', '+81', null],
      ],
    );
    assert.equal((await query('US', 'zh-cn')).json().data[0].name, '美国');
    assert.equal((await query('US')).json().data[0].name, 'United States');

    const six = await query('US,GB,JP,FR,DE,IT', 'zh-cn');
    assert.equal(six.statusCode, 400);
    assert.equal(six.json().fields[0].message, '请选择1到5个国家或地区');
    const unknown = await query('XX');
    assert.equal(unknown.statusCode, 400);
    assert.equal(unknown.json().message, 'Unknown country or region: XX');
    const countries = await t.app.inject({
      method: 'GET',
      url: '/v3/api/public/smsCountries',
      headers: { lang: 'en' },
    });
    const list = countries.json().data as { country: string }[];
    assert.ok(list.length > 200, `${list.length} countries and regions`);
    assert.ok(!list.some((c) => c.country === 'CN'), 'mainland China is domestic SMS');
  });

  it('sends from the name where the country takes names, from the code and extension elsewhere', async () => {
    const send = (phone: string) =>
      smsapi(t, 'send', ready, {
        templateId: String(ready.templateId),
        phone,
        vars: '{"code":"9"}',
        msgType: '2',
      });
    const us = await send('+14155552671');
    assert.equal(us.body.statusCode, 200, JSON.stringify(us.body));
    const gb = await send('+447400123456');
    assert.equal(gb.body.statusCode, 200, JSON.stringify(gb.body));
    await carrier.waitForMessages(2, 10_000);
    const from = (to: string) => carrier.messages.find((m) => m.destination === to)?.source;
    assert.equal(from('14155552671'), 'Herald');
    assert.equal(from('447400123456'), `10690001${ready.accountId}`);
  });
});
