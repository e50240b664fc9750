import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SMS_CARRIER_REFRESH_MS } from '@herald/shared';
import { type SmppCarrier, startSmppCarrier } from '@herald/test-peers';
import { injector } from '../api-users/fixtures.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { secretKeyEnv } from '../helpers/database.ts';
import { createOwner, type SignedIn } from '../helpers/members.ts';
import { sleep, waitFor } from '../helpers/wait.ts';
import { operatorSession } from '../templates/template-helpers.ts';
import { type SmsReady, smsapi, smsReadyAccount } from './sms-fixtures.ts';

const cli = path.join(import.meta.dirname, '../../src/cli.ts');
const BASE = '/v3/api/admin/smsCarriers';
const PASSWORD = 'Carrier#Secret-1';

/**
 * Carriers and routes in /admin (issue 20): only the platform operator may call them; a carrier
 * added there with a route carries an SMS to the loopback SMPP carrier and is the one the CLI
 * lists; its password is never answered, sealed at rest and kept when an edit leaves it empty;
 * disabling, enabling, removing a route and removing the carrier go through the same service as
 * the CLI's commands.
 */
describe('SMS carriers and routes in /admin', () => {
  let t: TestApp;
  let peer: SmppCarrier;
  let operator: SignedIn;
  let customer: SignedIn;
  let ready: SmsReady;
  let call: ReturnType<typeof injector>;

  before(async () => {
    peer = await startSmppCarrier({ accounts: { herald_admin: PASSWORD }, receiptDelayMs: 5 });
    t = await buildTestApp();
    call = injector(t);
    operator = await operatorSession(t);
    customer = await createOwner(t, 'carrier_customer');
    ready = await smsReadyAccount(t, customer.ctx.accountId, 'carrier_sms');
    t.core.smsDelivery.start();
  });
  after(async () => {
    await t?.close();
    await peer?.close();
  });

  /** The operator's CLI on the same database and secret key as the test app. */
  const herald = (...args: string[]) => {
    const { database, dataDir } = t.core.config;
    const url = database.kind === 'sqlite' ? `sqlite:${database.file}` : database.url;
    const result = spawnSync(process.execPath, [cli, ...args], {
      env: { ...process.env, DATABASE_URL: url, HERALD_DATA_DIR: dataDir, ...secretKeyEnv() },
      encoding: 'utf8',
    });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  };

  const send = async (phone: string) => {
    const res = await smsapi(t, 'send', ready, {
      templateId: String(ready.templateId),
      phone,
      vars: '{"code":"5151"}',
    });
    assert.equal(res.body.statusCode, 200, res.body.message);
    return (res.body.info.smsIds as string[])[0] as string;
  };
  const delivered = (smsId: string) =>
    waitFor(
      `${smsId} delivered`,
      async () => {
        const row = await t.core.database.db
          .selectFrom('sms_messages')
          .select('status')
          .where('sms_id', '=', smsId)
          .executeTakeFirstOrThrow();
        return row.status === 'delivered';
      },
      { timeoutMs: 30_000 },
    );
  const sealedSecret = async () =>
    (
      await t.core.database.db
        .selectFrom('sms_carriers')
        .select('secret_sealed')
        .where('name', '=', 'peer')
        .executeTakeFirstOrThrow()
    ).secret_sealed;

  it('answers 403 to a customer and 401 to nobody on every call', async () => {
    const calls = [
      ['GET', BASE],
      ['POST', BASE],
      ['PUT', `${BASE}/peer`],
      ['POST', `${BASE}/peer/enable`],
      ['POST', `${BASE}/peer/disable`],
      ['DELETE', `${BASE}/peer`],
      ['POST', `${BASE}/peer/routes`],
      ['DELETE', `${BASE}/peer/routes/1`],
    ] as const;
    const body = { name: 'peer', url: 'smpp://127.0.0.1:2775', systemId: 'x', password: 'y', country: 'CN' };
    for (const [method, url] of calls) {
      const res = await call(method, url, customer, body);
      assert.equal(res.statusCode, 403, `a customer: ${method} ${url}`);
      assert.equal((await call(method, url, null, body)).statusCode, 401, `nobody: ${method} ${url}`);
    }
    assert.deepEqual(await t.core.smsCarriers.list(), []);
  });

  it('adds a carrier and a route that carry an SMS to the carrier; the password is never answered', async () => {
    const noPassword = await call('POST', BASE, operator, {
      name: 'peer',
      url: `smpp://127.0.0.1:${peer.port}`,
      systemId: 'herald_admin',
    });
    assert.equal(noPassword.statusCode, 400);
    assert.equal(noPassword.json().fields[0].field, 'password');
    const badUrl = await call(
      'POST',
      BASE,
      operator,
      { name: 'peer', url: 'http://127.0.0.1:80', systemId: 'herald_admin', password: PASSWORD },
      'zh-cn',
    );
    assert.equal(badUrl.statusCode, 400);
    assert.match(badUrl.json().fields[0].message, /smpp:\/\/主机:端口/);
    const badName = await call('POST', BASE, operator, {
      name: 'two words',
      url: `smpp://127.0.0.1:${peer.port}`,
      systemId: 'herald_admin',
      password: PASSWORD,
    });
    assert.equal(badName.json().fields[0].field, 'name');

    const added = await call('POST', BASE, operator, {
      name: 'peer',
      url: `smpp://127.0.0.1:${peer.port}`,
      systemId: 'herald_admin',
      password: PASSWORD,
      sourceAddr: '1069001',
      perSecond: 50,
    });
    assert.equal(added.statusCode, 201, added.body);
    assert.ok(!added.body.includes(PASSWORD), 'the password is not answered');
    const carrier = added.json().data;
    assert.deepEqual(
      [carrier.name, carrier.protocol, carrier.host, carrier.systemId, carrier.sourceAddr, carrier.perSecond],
      ['peer', 'smpp', `127.0.0.1:${peer.port}`, 'herald_admin', '1069001', 50],
    );
    assert.equal(carrier.enabled, true);
    assert.equal('password' in carrier || 'secretSealed' in carrier, false);
    const sealed = await sealedSecret();
    assert.ok(!sealed.includes(PASSWORD), 'sealed at rest');

    const again = await call('POST', BASE, operator, {
      name: 'peer',
      url: `smpp://127.0.0.1:${peer.port}`,
      systemId: 'herald_admin',
      password: PASSWORD,
    });
    assert.equal(again.statusCode, 409);

    const badRoute = await call('POST', `${BASE}/peer/routes`, operator, { country: 'China' });
    assert.equal(badRoute.statusCode, 400);
    assert.equal(badRoute.json().fields[0].field, 'country');
    const routed = await call('POST', `${BASE}/peer/routes`, operator, {
      country: 'cn',
      prefix: '138',
      kind: 'sms',
      priority: 3,
    });
    assert.equal(routed.statusCode, 201, routed.body);
    assert.deepEqual(
      routed
        .json()
        .data.routes.map((r: Record<string, unknown>) => [r.country, r.prefix, r.kind, r.priority]),
      [['CN', '138', 'sms', 3]],
    );

    const listed = await call('GET', BASE, operator);
    assert.equal(listed.statusCode, 200);
    assert.ok(!listed.body.includes(PASSWORD));
    assert.equal(listed.json().data.refreshSeconds, 5);
    assert.deepEqual(
      listed.json().data.carriers.map((c: { name: string }) => c.name),
      ['peer'],
    );

    const cliList = herald('sms:carriers');
    assert.equal(cliList.code, 0, cliList.stderr);
    assert.match(
      cliList.stdout,
      /enabled\s+peer smpp:\/\/127\.0\.0\.1:\d+ system_id herald_admin source 1069001 50\/s routes CN\+138\(sms\)#3/,
    );
    assert.ok(!cliList.stdout.includes(PASSWORD));

    const smsId = await send('13800138555');
    const submitted = await waitFor(
      'the carrier got it',
      () => peer.messages.find((m) => m.destination === '8613800138555'),
      {
        timeoutMs: 30_000,
      },
    );
    assert.equal(submitted.source, `1069001${customer.ctx.accountId}`);
    await delivered(smsId);
  });

  it('keeps the sealed password when an edit leaves it empty, and replaces it when one is given', async () => {
    const before = await sealedSecret();
    const edited = await call('PUT', `${BASE}/peer`, operator, {
      url: `smpp://127.0.0.1:${peer.port}?window=4`,
      systemId: 'herald_admin',
      password: '',
      sourceAddr: '1069002',
      perSecond: 0,
    });
    assert.equal(edited.statusCode, 200, edited.body);
    assert.deepEqual(
      [edited.json().data.url, edited.json().data.sourceAddr, edited.json().data.perSecond],
      [`smpp://127.0.0.1:${peer.port}?window=4`, '1069002', 0],
    );
    assert.equal(await sealedSecret(), before, 'the password is kept');
    assert.equal(edited.json().data.routes.length, 1, 'the routes stay');
    // Once the worker reads the directory again, it replaces its session with the edited one
    // (the new sender id shows it), binding with the kept password.
    await sleep(SMS_CARRIER_REFRESH_MS + 200);
    const smsId = await send('13800138556');
    const submitted = await waitFor(
      'the edited connection',
      () => peer.messages.find((m) => m.destination === '8613800138556'),
      { timeoutMs: 30_000 },
    );
    assert.equal(submitted.source, `1069002${customer.ctx.accountId}`);
    await delivered(smsId);

    const missing = await call('PUT', `${BASE}/nobody`, operator, {
      url: `smpp://127.0.0.1:${peer.port}`,
      systemId: 'x',
    });
    assert.equal(missing.statusCode, 404);

    const replaced = await call('PUT', `${BASE}/peer`, operator, {
      url: `smpp://127.0.0.1:${peer.port}?window=4`,
      systemId: 'herald_admin',
      password: 'Another#Secret',
      sourceAddr: '1069002',
    });
    assert.equal(replaced.statusCode, 200);
    assert.ok(!replaced.body.includes('Another#Secret'));
    assert.notEqual(await sealedSecret(), before);
    const [loaded] = (await t.core.smsCarriers.load()).carriers;
    assert.equal(loaded?.password, 'Another#Secret');
    await call('PUT', `${BASE}/peer`, operator, {
      url: `smpp://127.0.0.1:${peer.port}`,
      systemId: 'herald_admin',
      password: PASSWORD,
    });
  });

  it('disables and enables a carrier, here and from the CLI alike; removes a route and the carrier', async () => {
    const disabled = await call('POST', `${BASE}/peer/disable`, operator);
    assert.equal(disabled.json().data.enabled, false);
    assert.deepEqual((await t.core.smsCarriers.load()).carriers, [], 'workers no longer see it');
    assert.match(herald('sms:carriers').stdout, /^disabled peer /);
    assert.equal(herald('sms:carrier-enable', 'peer').code, 0);
    const listed = (await call('GET', BASE, operator)).json().data.carriers;
    assert.equal(listed[0].enabled, true, 'the CLI’s change shows here');
    assert.equal((await call('POST', `${BASE}/peer/enable`, operator)).json().data.enabled, true);

    const second = await call('POST', `${BASE}/peer/routes`, operator, { country: '*', priority: 9 });
    const routes = second.json().data.routes as { id: number; country: string }[];
    assert.deepEqual(
      routes.map((r) => r.country),
      ['CN', '*'],
    );
    const star = routes.find((r) => r.country === '*')?.id;
    const removed = await call('DELETE', `${BASE}/peer/routes/${star}`, operator);
    assert.equal(removed.statusCode, 200);
    assert.deepEqual(
      removed.json().data.routes.map((r: { country: string }) => r.country),
      ['CN'],
    );
    assert.equal((await call('DELETE', `${BASE}/peer/routes/${star}`, operator)).statusCode, 404);

    assert.equal((await call('DELETE', `${BASE}/peer`, operator)).statusCode, 204);
    assert.deepEqual((await call('GET', BASE, operator)).json().data.carriers, []);
    assert.equal((await call('DELETE', `${BASE}/peer`, operator)).statusCode, 404);
    assert.equal(
      (await t.core.database.db.selectFrom('sms_routes').selectAll().execute()).length,
      0,
      'its routes went with it',
    );
  });
});
