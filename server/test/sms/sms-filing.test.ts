import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PERMISSIONS as P } from '@herald/shared';
import { filingSealContext } from '../../src/core/sms-filings/filing-view.ts';
import { injector } from '../api-users/fixtures.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { secretKeyEnv } from '../helpers/database.ts';
import { createOwner, joinedMember, type SignedIn } from '../helpers/members.ts';
import { operatorSession } from '../templates/template-helpers.ts';
import { ID_MASKED, ID_NUMBER, PDF, PNG, uploadedId, uploadFile } from './sms-uploads.fixtures.ts';

const cli = path.join(import.meta.dirname, '../../src/cli.ts');

/**
 * The SMS filing and the certification mark: the handler's ID number checked, sealed in the row
 * and masked on screen; the commitment book one jpg, png or pdf; under review → rejected with a
 * reason → resubmitted → approved → disabled by the operator; the gates every SMS send reads
 * follow each step, and so does the mark operators set from /admin/accounts and the CLI.
 */
describe('SMS filing and certification', () => {
  let t: TestApp;
  let owner: SignedIn;
  let other: SignedIn;
  let operator: SignedIn;
  let call: ReturnType<typeof injector>;

  before(async () => {
    t = await buildTestApp();
    call = injector(t);
    owner = await createOwner(t, 'filing_owner');
    other = await createOwner(t, 'filing_other');
    operator = await operatorSession(t);
  });
  after(() => t?.close());

  const submit = (who: SignedIn, body: object, lang = 'en') =>
    call('POST', '/v3/api/sms/filing', who, body, lang);
  const filing = async (who: SignedIn) => (await call('GET', '/v3/api/sms/filing', who)).json().data;
  const gates = () => t.core.smsCompliance.gates(owner.ctx);

  it('checks the handler, the ID number and the commitment book, in both languages', async () => {
    assert.equal(await filing(owner), null, 'nothing before the first submission');
    const zh = await submit(owner, { handlerName: '张', handlerIdNumber: '110105194912310021' }, 'zh-cn');
    assert.equal(zh.statusCode, 400);
    assert.deepEqual(
      zh.json().fields.map((f: { field: string; message: string }) => [f.field, f.message]),
      [
        ['handlerName', '姓名为2-30个汉字或字母'],
        ['handlerIdNumber', '身份证号格式不正确'],
        ['commitmentFileId', '请上传承诺书（jpg、png 或 pdf，一个文件）'],
      ],
    );
    const en = await submit(owner, { handlerName: '', handlerIdNumber: '123' });
    assert.deepEqual(
      en.json().fields.map((f: { message: string }) => f.message),
      [
        'This field is required',
        'ID number format incorrect',
        'Upload the commitment book (one jpg, png or pdf file)',
      ],
    );
    const signFile = await uploadedId(t, owner, 'sms_sign');
    const wrongPurpose = await submit(owner, {
      handlerName: '张三',
      handlerIdNumber: ID_NUMBER,
      commitmentFileId: signFile,
    });
    assert.deepEqual([wrongPurpose.statusCode, wrongPurpose.json().code], [404, 'SMS_UPLOAD_NOT_FOUND']);
    const othersFile = await uploadedId(t, other, 'sms_filing', 'book.pdf', PDF);
    const borrowed = await submit(owner, {
      handlerName: '张三',
      handlerIdNumber: ID_NUMBER,
      commitmentFileId: othersFile,
    });
    assert.deepEqual([borrowed.statusCode, borrowed.json().code], [404, 'SMS_UPLOAD_NOT_FOUND']);
    const text = await uploadFile(t, owner, 'sms_filing', 'book.pdf', Buffer.from('not a pdf'));
    assert.deepEqual([text.statusCode, text.json().code], [400, 'SMS_UPLOAD_INVALID']);
    assert.equal(await filing(owner), null);
  });

  it('is submitted under review with the ID number sealed, and cannot be resubmitted while reviewed', async () => {
    const book = await uploadedId(t, owner, 'sms_filing', '承诺书.pdf', PDF);
    const res = await submit(owner, {
      handlerName: '张三',
      handlerIdNumber: ID_NUMBER,
      commitmentFileId: book,
    });
    assert.equal(res.statusCode, 201, res.body);
    const view = res.json().data;
    assert.deepEqual(
      [
        view.handlerName,
        view.handlerIdNumber,
        view.status,
        view.commitmentFile.name,
        view.commitmentFile.contentType,
      ],
      ['张三', ID_MASKED, 'reviewing', '承诺书.pdf', 'application/pdf'],
    );
    assert.ok(!res.body.includes(ID_NUMBER));
    const row = await t.core.database.db
      .selectFrom('sms_filings')
      .select(['handler_id_number'])
      .where('account_id', '=', owner.ctx.accountId)
      .executeTakeFirstOrThrow();
    assert.ok(!row.handler_id_number.includes(ID_NUMBER) && !row.handler_id_number.includes('1949'));
    assert.equal(
      t.core.secretBox.open(row.handler_id_number, filingSealContext(owner.ctx.accountId)),
      ID_NUMBER,
    );
    assert.equal(
      t.core.secretBox.open(row.handler_id_number, filingSealContext(owner.ctx.accountId)),
      ID_NUMBER,
      'bound to its account',
    );
    assert.throws(() => t.core.secretBox.open(row.handler_id_number, filingSealContext(other.ctx.accountId)));

    const again = await submit(
      owner,
      { handlerName: '李四', handlerIdNumber: ID_NUMBER, commitmentFileId: book },
      'zh-cn',
    );
    assert.deepEqual([again.statusCode, again.json().error], [409, '短信备案审核中，请等待审核结果']);
    assert.equal(await filing(other), null, 'another account sees none of it');
    assert.deepEqual(await gates(), { certification: 'none', certified: false, filingPassed: false });
  });

  it('is rejected with a reason, resubmitted, approved and disabled by an operator; the gates follow', async () => {
    const { id } = await filing(owner);
    for (const [method, url] of [
      ['GET', '/v3/api/admin/smsFilings'],
      ['POST', `/v3/api/admin/smsFilings/${id}/pass`],
      ['POST', `/v3/api/admin/smsFilings/${id}/reject`],
      ['POST', `/v3/api/admin/smsFilings/${id}/disable`],
      ['PUT', `/v3/api/admin/accounts/${owner.ctx.accountId}/certification`],
    ] as const) {
      const res = await call(method, url, owner, { reason: 'x', certification: 'enterprise' });
      assert.equal(res.statusCode, 403, `a customer: ${method} ${url}`);
    }

    const pending = (await call('GET', '/v3/api/admin/smsFilings', operator)).json().data;
    const listed = pending.find((f: { id: number }) => f.id === id);
    assert.deepEqual(
      [listed.accountName, listed.handlerName, listed.handlerIdNumber],
      ['filing_owner', '张三', ID_NUMBER],
    );
    const book = await call('GET', `/v3/api/admin/smsUploads/${listed.commitmentFile.id}`, operator);
    assert.deepEqual([book.headers['content-type'], book.rawPayload], ['application/pdf', PDF]);

    const early = await call('POST', `/v3/api/admin/smsFilings/${id}/disable`, operator);
    assert.deepEqual([early.statusCode, early.json().code], [409, 'SMS_FILING_NOT_PASSED']);
    const noReason = await call('POST', `/v3/api/admin/smsFilings/${id}/reject`, operator, {});
    assert.equal(noReason.statusCode, 400);
    const rejected = await call('POST', `/v3/api/admin/smsFilings/${id}/reject`, operator, {
      reason: '承诺书未盖公章',
    });
    assert.equal(rejected.json().data.status, 'rejected');
    assert.deepEqual(
      [(await filing(owner)).status, (await filing(owner)).rejectReason],
      ['rejected', '承诺书未盖公章'],
    );

    const stamped = await uploadedId(t, owner, 'sms_filing', 'stamped.png', PNG);
    const again = await submit(owner, {
      handlerName: '张三',
      handlerIdNumber: ID_NUMBER,
      commitmentFileId: stamped,
    });
    assert.equal(again.statusCode, 201, again.body);
    assert.deepEqual(
      [again.json().data.status, again.json().data.rejectReason, again.json().data.commitmentFile.name],
      ['reviewing', null, 'stamped.png'],
    );
    assert.equal(
      (await call('GET', `/v3/api/admin/smsUploads/${listed.commitmentFile.id}`, operator)).statusCode,
      404,
      'the replaced book is gone',
    );

    const passed = await call('POST', `/v3/api/admin/smsFilings/${id}/pass`, operator);
    assert.equal(passed.json().data.status, 'passed');
    assert.equal((await filing(owner)).status, 'passed');
    assert.deepEqual(await gates(), { certification: 'none', certified: false, filingPassed: true });
    const locked = await submit(owner, {
      handlerName: '张三',
      handlerIdNumber: ID_NUMBER,
      commitmentFileId: stamped,
    });
    assert.deepEqual([locked.statusCode, locked.json().code], [409, 'SMS_FILING_PASSED']);

    const disabled = await call('POST', `/v3/api/admin/smsFilings/${id}/disable`, operator);
    assert.equal(disabled.json().data.status, 'disabled');
    const told = (await t.core.siteMessages.list(owner.ctx, {}, 'en')).list;
    assert.deepEqual(
      told.slice(0, 3).map((m) => m.kind),
      ['sms_filing_disabled', 'sms_filing_approved', 'sms_filing_rejected'],
      'the message centre tells the account of each decision',
    );
    assert.equal(told[2]?.content, 'Your SMS filing was rejected: 承诺书未盖公章.');
    assert.equal((await filing(owner)).status, 'disabled');
    assert.equal((await gates()).filingPassed, false);
    const afterDisable = await submit(
      owner,
      { handlerName: '张三', handlerIdNumber: ID_NUMBER, commitmentFileId: stamped },
      'zh-cn',
    );
    assert.deepEqual(
      [afterDisable.statusCode, afterDisable.json().error],
      [409, '短信备案已停用，请联系客服'],
    );
  });

  it('takes the certification mark from /admin/accounts and from the CLI', async () => {
    const bad = await call('PUT', `/v3/api/admin/accounts/${owner.ctx.accountId}/certification`, operator, {
      certification: 'gold',
    });
    assert.deepEqual(
      [bad.statusCode, bad.json().fields[0].message],
      [400, 'The certification must be none, personal or enterprise'],
    );
    const set = await call('PUT', `/v3/api/admin/accounts/${owner.ctx.accountId}/certification`, operator, {
      certification: 'enterprise',
    });
    assert.equal(set.statusCode, 200, set.body);
    assert.equal(set.json().data.certification, 'enterprise');
    assert.equal((await gates()).certified, true);
    const listed = (await call('GET', '/v3/api/admin/accounts?search=filing_owner', operator)).json().data
      .list;
    assert.deepEqual(
      listed.map((a: { userName: string; certification: string }) => [a.userName, a.certification]),
      [['filing_owner', 'enterprise']],
    );
    const platform = await call(
      'PUT',
      `/v3/api/admin/accounts/${operator.ctx.accountId}/certification`,
      operator,
      {
        certification: 'enterprise',
      },
    );
    assert.equal(platform.statusCode, 404);

    const { database } = t.core.config;
    const herald = (...args: string[]) =>
      spawnSync(process.execPath, [cli, ...args], {
        env: {
          ...process.env,
          DATABASE_URL: database.kind === 'sqlite' ? `sqlite:${database.file}` : database.url,
          HERALD_DATA_DIR: t.core.config.dataDir,
          ...secretKeyEnv(),
        },
        encoding: 'utf8',
      });
    const personal = herald('accounts:certify', 'filing_owner', 'personal');
    assert.equal(personal.status, 0, personal.stderr);
    assert.match(personal.stdout, /filing_owner: certification personal; SMS filing not approved/);
    assert.deepEqual(await gates(), { certification: 'personal', certified: false, filingPassed: false });
    const wrong = herald('accounts:certify', 'filing_owner', 'gold');
    assert.equal(wrong.status, 2);
    assert.match(wrong.stderr, /The certification must be none, personal or enterprise/);
  });

  it('needs code 18 for the customer’s calls', async () => {
    const member = await joinedMember(t, owner, 'filing_nosms', {
      type: 'custom',
      levels: { [P.SMS_SETTINGS]: 'full' },
    });
    assert.equal((await call('GET', '/v3/api/sms/filing', member)).statusCode, 403);
    assert.equal((await submit(member, { handlerName: '张三' })).statusCode, 403);
    assert.equal((await uploadFile(t, member, 'sms_filing', 'a.pdf', PDF)).statusCode, 403);
  });
});
