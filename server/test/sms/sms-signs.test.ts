import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PERMISSIONS as P, SMS_UPLOAD_MAX_BYTES } from '@herald/shared';
import { toSendCloudSign } from '../../src/core/sms-signs/sendcloud-sign.ts';
import { signSealContext } from '../../src/core/sms-signs/sign-details.ts';
import { injector } from '../api-users/fixtures.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner, joinedMember, type SignedIn } from '../helpers/members.ts';
import { operatorSession } from '../templates/template-helpers.ts';
import { ID_MASKED, ID_NUMBER, JPEG, PDF, PNG, uploadedId, uploadFile } from './sms-uploads.fixtures.ts';

/**
 * SMS signatures through the console API: every name rule with its message in both languages,
 * the availability check, uploads told by their bytes and size, the third party's documents with
 * the legal person's ID number sealed in the row and masked on the screen, tenancy (another
 * account's signature or file is a 404), code 18, and the operator's review: a rejection with its
 * reason, an edit that goes back to review, a pass the send path can then use.
 */
describe('SMS signatures', () => {
  let t: TestApp;
  let owner: SignedIn;
  let other: SignedIn;
  let operator: SignedIn;
  let call: ReturnType<typeof injector>;

  before(async () => {
    t = await buildTestApp();
    call = injector(t);
    owner = await createOwner(t, 'sign_owner');
    other = await createOwner(t, 'sign_other');
    operator = await operatorSession(t);
  });
  after(() => t?.close());

  const create = (who: SignedIn, body: object, lang = 'en') =>
    call('POST', '/v3/api/sms/smsSigns', who, body, lang);
  const basic = (name: string) => ({ name, signType: 'domestic', source: 'enterprise' });

  it('refuses every broken name rule with its message in zh-cn and en', async () => {
    const cases: [string, string, string][] = [
      ['', '此项为必填项', 'This field is required'],
      [' 顺丰速运', '签名首尾不能有空格', 'The signature must not begin or end with a space'],
      ['顺丰速运 ', '签名首尾不能有空格', 'The signature must not begin or end with a space'],
      [
        '【顺丰】',
        '签名不能包含括号（包括【】及全角括号）',
        'The signature must not contain brackets of any kind, including 【】 and full-width ones',
      ],
      [
        '顺丰（中国）',
        '签名不能包含括号（包括【】及全角括号）',
        'The signature must not contain brackets of any kind, including 【】 and full-width ones',
      ],
      [
        '顺丰(CN)',
        '签名不能包含括号（包括【】及全角括号）',
        'The signature must not contain brackets of any kind, including 【】 and full-width ones',
      ],
      [
        '顺丰-速运',
        '签名只能包含中文、字母和数字',
        'The signature may contain only Chinese characters, letters and digits',
      ],
      ['顺', '签名为2-12个字符', 'The signature must be 2-12 characters'],
      ['顺丰速运顺丰速运顺丰速运顺', '签名为2-12个字符', 'The signature must be 2-12 characters'],
      ['12345', '签名不能为纯数字', 'The signature must not be digits only'],
    ];
    const neutral = [
      '不能使用中性或测试签名（如“测试”“验证码”“短信通知”）',
      'Neutral or test signatures (such as “test”, “验证码” or “短信通知”) are not allowed',
    ] as const;
    for (const name of ['测试', 'test', 'Test01', '验证码', '短信通知', '测试公司'])
      cases.push([name, ...neutral]);

    for (const [name, zh, en] of cases) {
      for (const [lang, message] of [
        ['zh-cn', zh],
        ['en', en],
      ] as const) {
        const res = await create(owner, basic(name), lang);
        assert.equal(res.statusCode, 400, `${JSON.stringify(name)} ${res.body}`);
        const field = res.json().fields[0];
        assert.deepEqual([field.field, field.message], ['name', message], JSON.stringify(name));
      }
    }
    const listed = await call('GET', '/v3/api/sms/smsSigns', owner);
    assert.equal(listed.json().data.total, 0, 'nothing was created');
  });

  it('checks a name as the user types: its rule, taken, or available', async () => {
    const check = async (name: string, type = 'domestic', lang = 'en') =>
      (
        await call(
          'GET',
          `/v3/api/sms/smsSigns/check?name=${encodeURIComponent(name)}&type=${type}`,
          owner,
          undefined,
          lang,
        )
      ).json().data;
    assert.deepEqual(await check('顺丰速运'), { available: true, message: null });
    assert.deepEqual(await check('【顺丰】', 'domestic', 'zh-cn'), {
      available: false,
      message: '签名不能包含括号（包括【】及全角括号）',
    });
    const res = await create(owner, basic('顺丰速运'));
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(await check('顺丰速运'), {
      available: false,
      message: 'You already have this signature',
    });
    assert.deepEqual(await check('顺丰速运', 'domestic', 'zh-cn'), {
      available: false,
      message: '该签名已存在',
    });
    assert.deepEqual(await check('顺丰速运', 'international'), { available: true, message: null });

    const again = await create(owner, basic('顺丰速运'), 'zh-cn');
    assert.deepEqual(
      [again.statusCode, again.json().code, again.json().error],
      [422, 'SMS_SIGN_NAME_TAKEN', '该签名已存在'],
    );
    const intl = await create(owner, { ...basic('顺丰速运'), signType: 'international' });
    assert.equal(intl.statusCode, 201, 'the same name may be an international signature too');
    assert.equal((await create(other, basic('顺丰速运'))).statusCode, 201, 'and another account’s');
  });

  it('takes png, jpg and pdf uploads by their bytes, up to 2 MB, and serves them back as they are', async () => {
    const png = await uploadFile(t, owner, 'sms_sign', 'licence.png', PNG);
    assert.equal(png.statusCode, 201, png.body);
    assert.deepEqual(png.json().data, {
      id: png.json().data.id,
      name: 'licence.png',
      contentType: 'image/png',
      size: PNG.length,
    });
    const jpeg = await uploadFile(t, owner, 'sms_sign', 'photo.JPEG', JPEG);
    assert.equal(jpeg.json().data.contentType, 'image/jpeg');
    const pdf = await uploadFile(t, owner, 'sms_sign', 'letter.pdf', PDF);
    assert.equal(pdf.json().data.contentType, 'application/pdf');

    const served = await call('GET', `/v3/api/sms/uploads/${png.json().data.id}`, owner);
    assert.equal(served.statusCode, 200);
    assert.equal(served.headers['content-type'], 'image/png');
    assert.deepEqual(served.rawPayload, PNG);

    const refused = async (filename: string, content: Buffer, lang: string) => {
      const res = await uploadFile(t, owner, 'sms_sign', filename, content, lang);
      return [res.statusCode, res.json().code, res.json().error];
    };
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    assert.deepEqual(await refused('licence.png', html, 'en'), [
      400,
      'SMS_UPLOAD_INVALID',
      'Upload file invalid (its content does not match its type), please re-upload',
    ]);
    assert.deepEqual(await refused('licence.jpg', PNG, 'zh-cn'), [
      400,
      'SMS_UPLOAD_INVALID',
      '上传文件无效（内容与文件类型不符），请重新上传',
    ]);
    assert.deepEqual(await refused('licence.gif', PNG, 'en'), [
      400,
      'SMS_UPLOAD_FORMAT',
      'The file format is wrong: only png, jpg, jpeg or pdf',
    ]);
    assert.deepEqual(await refused('empty.png', Buffer.alloc(0), 'zh-cn'), [
      400,
      'SMS_UPLOAD_EMPTY',
      '上传的文件为空',
    ]);
    const big = Buffer.concat([PNG, Buffer.alloc(SMS_UPLOAD_MAX_BYTES - PNG.length + 1)]);
    assert.deepEqual(await refused('big.png', big, 'en'), [
      400,
      'SMS_UPLOAD_TOO_LARGE',
      'Files exceed size, up to 2 MB',
    ]);
    const exact = Buffer.concat([PNG, Buffer.alloc(SMS_UPLOAD_MAX_BYTES - PNG.length)]);
    assert.equal(
      (await uploadFile(t, owner, 'sms_sign', 'exact.png', exact)).statusCode,
      201,
      '2 MB exactly is fine',
    );

    const noFile = await call('POST', '/v3/api/sms/uploads?purpose=sms_sign', owner, { a: 'b' });
    assert.equal(noFile.statusCode, 400, noFile.body);
  });

  it('keeps a third party’s documents: the ID number sealed in the row, masked on screen', async () => {
    const licence = await uploadedId(t, owner, 'sms_sign');
    const idPhoto = await uploadedId(t, owner, 'sms_sign', 'id-back.jpg', JPEG);
    const attachment = await uploadedId(t, owner, 'sms_sign', 'trademark.pdf', PDF);

    const missing = await create(owner, { ...basic('京东物流'), thirdParty: true }, 'zh-cn');
    assert.equal(missing.statusCode, 400);
    assert.deepEqual(
      missing.json().fields.map((f: { field: string; message: string }) => [f.field, f.message]),
      [
        ['licenseFileId', '请上传第三方营业执照图片'],
        ['legalPersonName', '此项为必填项'],
        ['legalPersonIdNumber', '此项为必填项'],
      ],
    );
    const badId = await create(owner, {
      ...basic('京东物流'),
      thirdParty: true,
      licenseFileId: licence,
      legalPersonName: '刘强',
      legalPersonIdNumber: '110105194912310021',
    });
    assert.deepEqual(badId.json().fields, [
      { field: 'legalPersonIdNumber', message: 'ID number format incorrect', rule: 'idNumberFormat' },
    ]);
    const pdfLicence = await create(owner, {
      ...basic('京东物流'),
      thirdParty: true,
      licenseFileId: attachment,
      legalPersonName: '刘强',
      legalPersonIdNumber: ID_NUMBER,
    });
    assert.deepEqual(pdfLicence.json().fields, [
      { field: 'licenseFileId', message: 'Upload a png, jpg or jpeg image', rule: 'smsSignImageOnly' },
    ]);
    const tooMany = await create(owner, { ...basic('京东物流'), attachmentIds: [1, 2, 3, 4, 5, 6] });
    assert.equal(tooMany.json().fields[0].message, 'At most 5 attachments');

    const res = await create(owner, {
      name: '京东物流',
      signType: 'domestic',
      source: 'trademark',
      thirdParty: true,
      licenseFileId: licence,
      legalPersonName: '刘强',
      legalPersonIdNumber: ID_NUMBER.toLowerCase(),
      idSide: 'back',
      idFileId: idPhoto,
      attachmentIds: [attachment],
    });
    assert.equal(res.statusCode, 201, res.body);
    const sign = res.json().data;
    assert.equal(sign.status, 'reviewing');
    assert.equal(sign.legalPersonIdNumber, ID_MASKED);
    assert.deepEqual(
      [
        sign.licenseFile.id,
        sign.idFile.name,
        sign.idSide,
        sign.attachments.map((a: { name: string }) => a.name),
      ],
      [licence, 'id-back.jpg', 'back', ['trademark.pdf']],
    );
    assert.ok(!res.body.includes(ID_NUMBER), 'the answer never holds the whole number');

    const row = await t.core.database.db
      .selectFrom('sms_signs')
      .select(['details'])
      .where('id', '=', sign.id)
      .executeTakeFirstOrThrow();
    assert.ok(!row.details.includes(ID_NUMBER) && !row.details.includes('1949'), 'sealed in the row');
    const sealed = JSON.parse(row.details).legalPersonIdSealed;
    assert.equal(t.core.secretBox.open(sealed, signSealContext(owner.ctx.accountId)), ID_NUMBER);

    const reused = await create(owner, { ...basic('京东到家'), attachmentIds: [attachment] });
    assert.deepEqual(
      [reused.statusCode, reused.json().code],
      [404, 'SMS_UPLOAD_NOT_FOUND'],
      'a file serves one signature',
    );
  });

  it('keeps each account to its own signatures and files (404), and needs code 18 (403)', async () => {
    const mine = (await create(owner, basic('申通快递'))).json().data;
    const myFile = await uploadedId(t, owner, 'sms_sign');
    for (const [method, url, body] of [
      ['GET', `/v3/api/sms/smsSigns/${mine.id}`, undefined],
      ['PUT', `/v3/api/sms/smsSigns/${mine.id}`, basic('申通快递')],
      ['DELETE', `/v3/api/sms/smsSigns/${mine.id}`, undefined],
      ['GET', `/v3/api/sms/uploads/${myFile}`, undefined],
    ] as const) {
      const res = await call(method, url, other, body);
      assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
    }
    const borrowed = await create(other, { ...basic('圆通速递'), attachmentIds: [myFile] });
    assert.deepEqual([borrowed.statusCode, borrowed.json().code], [404, 'SMS_UPLOAD_NOT_FOUND']);
    assert.equal((await call('GET', `/v3/api/sms/smsSigns/${mine.id}`, owner)).json().data.name, '申通快递');

    const withoutSms = await joinedMember(t, owner, 'sign_nosms', {
      type: 'custom',
      levels: { [P.SMS_SETTINGS]: 'full' },
    });
    const smsMember = await joinedMember(t, owner, 'sign_sms', {
      type: 'custom',
      levels: { [P.SMS_SEND]: 'full' },
    });
    for (const [method, url, body] of [
      ['GET', '/v3/api/sms/smsSigns', undefined],
      ['POST', '/v3/api/sms/smsSigns', basic('韵达快递')],
      ['GET', `/v3/api/sms/smsSigns/check?name=abc`, undefined],
      ['GET', `/v3/api/sms/uploads/${myFile}`, undefined],
      ['GET', '/v3/api/sms/filing', undefined],
    ] as const) {
      const res = await call(method, url, withoutSms, body);
      assert.equal(res.statusCode, 403, `${method} ${url}`);
    }
    assert.equal((await uploadFile(t, withoutSms, 'sms_sign', 'a.png', PNG)).statusCode, 403);
    assert.equal((await create(smsMember, basic('韵达快递'))).statusCode, 201, 'a member with code 18 may');
  });

  it('goes through the operator’s review: rejected with a reason, edited, passed, then usable', async () => {
    const created = (await create(owner, basic('中通快递'))).json().data;
    const usable = () => t.core.smsSigns.usable(owner.ctx, { name: '中通快递' }, 'domestic');
    assert.equal(await usable(), undefined, 'not before it passes');

    for (const [method, url] of [
      ['GET', '/v3/api/admin/smsSigns'],
      ['GET', `/v3/api/admin/smsSigns/${created.id}`],
      ['POST', `/v3/api/admin/smsSigns/${created.id}/pass`],
      ['POST', `/v3/api/admin/smsSigns/${created.id}/reject`],
    ] as const) {
      const res = await call(method, url, owner, { reason: 'x' });
      assert.equal(res.statusCode, 403, `a customer: ${method} ${url}`);
    }

    const pending = await call('GET', '/v3/api/admin/smsSigns', operator);
    assert.equal(pending.statusCode, 200, pending.body);
    const listed = pending.json().data.find((s: { id: number }) => s.id === created.id);
    assert.deepEqual(
      [listed.accountName, listed.name, listed.status],
      ['sign_owner', '中通快递', 'reviewing'],
    );
    const thirdParty = pending.json().data.find((s: { name: string }) => s.name === '京东物流');
    assert.equal(thirdParty.legalPersonIdNumber, ID_NUMBER, 'the operator checks the whole number');
    const file = await call('GET', `/v3/api/admin/smsUploads/${thirdParty.licenseFile.id}`, operator);
    assert.deepEqual([file.statusCode, file.headers['content-type']], [200, 'image/png']);
    assert.deepEqual(file.rawPayload, PNG);
    assert.equal(
      (await call('GET', `/v3/api/admin/smsUploads/${thirdParty.licenseFile.id}`, owner)).statusCode,
      403,
    );

    const noReason = await call(
      'POST',
      `/v3/api/admin/smsSigns/${created.id}/reject`,
      operator,
      { reason: ' ' },
      'zh-cn',
    );
    assert.deepEqual(
      [noReason.statusCode, noReason.json().fields[0].message],
      [400, '请填写驳回原因（最多200字）'],
    );
    const rejected = await call('POST', `/v3/api/admin/smsSigns/${created.id}/reject`, operator, {
      reason: '请补充商标注册证',
    });
    assert.equal(rejected.statusCode, 200, rejected.body);
    const twice = await call('POST', `/v3/api/admin/smsSigns/${created.id}/pass`, operator);
    assert.deepEqual([twice.statusCode, twice.json().code], [409, 'SMS_SIGN_REVIEW_NOT_PENDING']);
    const told = (await t.core.siteMessages.list(owner.ctx, {}, 'zh-cn')).list[0];
    assert.deepEqual(
      [told?.kind, told?.content],
      ['sms_sign_rejected', '短信签名「中通快递」未通过审核，原因：请补充商标注册证。'],
      'the message centre tells the account',
    );

    const seen = (await call('GET', '/v3/api/sms/smsSigns?status=rejected', owner)).json().data;
    assert.deepEqual(
      seen.list.map((s: { name: string; rejectReason: string }) => [s.name, s.rejectReason]),
      [['中通快递', '请补充商标注册证']],
    );

    const edited = await call('PUT', `/v3/api/sms/smsSigns/${created.id}`, owner, {
      ...basic('中通快递'),
      source: 'brand',
    });
    assert.equal(edited.statusCode, 200, edited.body);
    assert.deepEqual([edited.json().data.status, edited.json().data.rejectReason], ['reviewing', null]);

    const passed = await call('POST', `/v3/api/admin/smsSigns/${created.id}/pass`, operator);
    assert.equal(passed.json().data.status, 'passed');
    assert.equal((await t.core.siteMessages.list(owner.ctx, {}, 'en')).list[0]?.kind, 'sms_sign_passed');
    const shown = (await call('GET', '/v3/api/sms/smsSigns?status=passed', owner)).json().data;
    assert.deepEqual(
      shown.list.map((s: { name: string }) => s.name),
      ['中通快递'],
    );
    assert.equal((await usable())?.id, created.id);
    assert.equal(
      await t.core.smsSigns.usable(owner.ctx, { id: created.id }, 'international'),
      undefined,
      'only as the type it is',
    );
    assert.equal(await t.core.smsSigns.usable(other.ctx, { id: created.id }, 'domestic'), undefined);

    // A change of a passed signature sends it back to review.
    await call('PUT', `/v3/api/sms/smsSigns/${created.id}`, owner, basic('中通速递'));
    assert.equal(await t.core.smsSigns.usable(owner.ctx, { id: created.id }, 'domestic'), undefined);
  });

  it('pages and filters the list, and deletes a signature with its files', async () => {
    const page = (await call('GET', '/v3/api/sms/smsSigns?pageNum=1&pageSize=2', owner)).json().data;
    assert.equal(page.list.length, 2);
    assert.ok(page.total > 2);
    const file = await uploadedId(t, owner, 'sms_sign', 'x.pdf', PDF);
    const sign = (await create(owner, { ...basic('百世快递'), attachmentIds: [file] })).json().data;
    const removed = await call('DELETE', `/v3/api/sms/smsSigns/${sign.id}`, owner);
    assert.equal(removed.statusCode, 204);
    assert.equal((await call('GET', `/v3/api/sms/smsSigns/${sign.id}`, owner)).statusCode, 404);
    assert.equal(
      (await call('GET', `/v3/api/sms/uploads/${file}`, owner)).statusCode,
      404,
      'its files went with it',
    );
  });

  it('answers the SMS API’s signature calls with exactly the fields of reference §11', async () => {
    const saved = await t.core.smsSigns.apiSave(owner.ctx, { signName: 'Herald', signType: 1 });
    assert.deepEqual(Object.keys(saved).sort(), [
      'createTime',
      'id',
      'signName',
      'signTypeDesc',
      'updateTime',
      'verifyStatus',
    ]);
    assert.deepEqual([saved.signName, saved.signTypeDesc, saved.verifyStatus], ['Herald', '国际短信', 0]);
    assert.match(saved.createTime, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const listed = await t.core.smsSigns.apiList(owner.ctx, { signType: 1 });
    assert.deepEqual(
      listed.list.map((s) => s.signName),
      ['Herald', '顺丰速运'],
    );
    const updated = await t.core.smsSigns.apiUpdate(owner.ctx, {
      id: saved.id,
      signName: 'HeraldMail',
    });
    assert.equal(updated.signName, 'HeraldMail');
    await assert.rejects(t.core.smsSigns.apiSave(owner.ctx, { signName: '测试', signType: 0 }));
    assert.deepEqual(
      toSendCloudSign({
        id: 7,
        account_id: 1,
        name: '顺丰',
        sign_type: 'domestic',
        source: 'enterprise',
        third_party: 0,
        details: '{}',
        status: 'rejected',
        reject_reason: 'x',
        created_at: Date.UTC(2026, 0, 2, 3, 4, 5),
        updated_at: Date.UTC(2026, 0, 2, 20, 0, 0),
      }),
      {
        id: 7,
        signName: '顺丰',
        signTypeDesc: '国内短信',
        verifyStatus: -1,
        createTime: '2026-01-02 11:04:05',
        updateTime: '2026-01-03 04:00:00',
      },
    );
  });
});
