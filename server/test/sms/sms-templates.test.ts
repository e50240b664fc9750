import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AppError, ERRORS, PERMISSIONS as P, VALIDATION_MESSAGES, type ValidationKey } from '@herald/shared';
import { toSendCloudTemplate } from '../../src/core/sms-templates/sendcloud-template.ts';
import { findTemplate } from '../../src/core/sms-templates/sms-templates.repo.ts';
import { injector } from '../api-users/fixtures.ts';
import { createSmsSign } from '../fixtures/sms-factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner, joinedMember, type SignedIn } from '../helpers/members.ts';
import { operatorSession } from '../templates/template-helpers.ts';

const DAY = 24 * 3600_000;
const BASE = '/v3/api/sms/smsTemplates';

/**
 * SMS, voice and MMS templates through the console API: every content rule with its message in
 * both languages, the review lifecycle with the operator in /admin/templates (pass, reject with a
 * reason, an edit back to unsubmitted), signatures (own, of the region, passed to submit), the
 * month-long idle rule of marketing templates, tenancy and permission code 18, the voice and MMS
 * limits, and what the send path reads (forSend's 431/432, markSent, the SendCloud fields).
 */
describe('SMS templates', () => {
  let t: TestApp;
  let call: ReturnType<typeof injector>;
  let owner: SignedIn;
  let other: SignedIn;
  let operator: SignedIn;
  let signId: number;
  let reviewingSignId: number;
  let intlSignId: number;
  let otherSignId: number;

  before(async () => {
    t = await buildTestApp();
    call = injector(t);
    owner = await createOwner(t, 'smstpl_owner');
    other = await createOwner(t, 'smstpl_other');
    operator = await operatorSession(t);
    const { database } = t.core;
    signId = await createSmsSign(database, owner.ctx.accountId, { name: '赫耳墨斯' });
    reviewingSignId = await createSmsSign(database, owner.ctx.accountId, {
      name: '信使快递',
      status: 'reviewing',
    });
    intlSignId = await createSmsSign(database, owner.ctx.accountId, {
      name: 'Herald',
      signType: 'international',
    });
    otherSignId = await createSmsSign(database, other.ctx.accountId, { name: '别家公司' });
  });
  after(() => t?.close());

  const sms = (extra: object = {}) => ({
    kind: 'sms',
    name: 'login_code',
    smsType: 'code',
    region: 'domestic',
    signId,
    content: '您的验证码是%code%，5分钟内有效。',
    variables: { code: '123456' },
    ...extra,
  });
  const create = (body: object, lang = 'en', who: SignedIn = owner) => call('POST', BASE, who, body, lang);
  const created = async (body: object) => {
    const res = await create(body);
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data as { id: number; status: string; variables: Record<string, string> };
  };
  const fieldMessage = (
    res: { statusCode: number; json(): { fields?: { field: string; message: string }[] } },
    field: string,
  ) => {
    assert.equal(res.statusCode, 400);
    return res.json().fields?.find((f) => f.field === field)?.message;
  };

  describe('content rules (product-spec §5), in both languages', () => {
    const cases: [string, object, string, ValidationKey][] = [
      ['【】 brackets', { content: '【促销】您好' }, 'content', 'smsContentBrackets'],
      ['[ ] brackets', { content: 'See [this] now' }, 'content', 'smsContentBrackets'],
      ['full-width brackets', { content: '您好［会员］' }, 'content', 'smsContentBrackets'],
      ['a non-breaking space', { content: 'Hello\u00a0world' }, 'content', 'smsContentNbsp'],
      ['a Chinese variable name', { content: '尊敬的%姓名%您好' }, 'content', 'smsVarNameChinese'],
      [
        'a variable without example',
        { content: '验证码%code%', variables: {} },
        'variables.code',
        'smsVarExampleRequired',
      ],
      [
        'an example over 32 characters',
        { variables: { code: 'x'.repeat(33) } },
        'variables.code',
        'smsVarExample',
      ],
      ['an example with a link', { variables: { code: 'https://a.cn' } }, 'variables.code', 'smsVarExample'],
      ['a link without scheme', { content: '详情见 www.example.com 查看' }, 'content', 'smsLinkScheme'],
      ['a link of another scheme', { content: '下载 ftp://example.com/a 查看' }, 'content', 'smsLinkScheme'],
      ['no space before a link', { content: '详情见https://example.com/a 查看' }, 'content', 'smsLinkSpaces'],
      ['no space after a link', { content: '详情见 https://example.com/a查看' }, 'content', 'smsLinkSpaces'],
      [
        'marketing without opt-out',
        { smsType: 'marketing', content: '双十一大促' },
        'content',
        'smsMarketingOptOut',
      ],
      [
        'marketing with text after the opt-out',
        { smsType: 'marketing', content: '双十一大促，拒收请回复R。' },
        'content',
        'smsMarketingOptOut',
      ],
      [
        'content over 500 characters',
        { content: '好'.repeat(501), variables: {} },
        'content',
        'smsContentLength',
      ],
      ['empty content', { content: '   ' }, 'content', 'required'],
      ['a Chinese name', { name: '登录验证码' }, 'name', 'smsTemplateName'],
      ['a name over 64', { name: 'a'.repeat(65) }, 'name', 'smsTemplateName'],
      ['no signature', { signId: undefined }, 'signId', 'smsTemplateSign'],
    ];
    for (const [what, extra, field, key] of cases) {
      it(`refuses ${what}`, async () => {
        const zh = await create(sms(extra), 'zh-cn');
        assert.equal(fieldMessage(zh, field), VALIDATION_MESSAGES[key]['zh-cn'], zh.body);
        const en = await create(sms(extra), 'en');
        assert.equal(fieldMessage(en, field), VALIDATION_MESSAGES[key].en, en.body);
      });
    }

    it('words the rules as the user reads them', async () => {
      const zh = await create(sms({ content: '【促销】您好' }), 'zh-cn');
      assert.equal(fieldMessage(zh, 'content'), '内容不能包含括号字符 [ ] 【 】 ［ ］，签名由平台自动添加');
      const en = await create(sms({ smsType: 'marketing', content: 'Big sale' }), 'en');
      assert.equal(
        fieldMessage(en, 'content'),
        'A marketing SMS must end with "拒收请回复R" (or "Reply R to unsubscribe") with nothing after it',
      );
    });

    it('accepts what the rules allow: spaced links, an opt-out at the end, percent signs, U+3000', async () => {
      for (const extra of [
        { content: '详情见 https://example.com/a?b=1 查看', variables: {} },
        { content: '订单已发货，详情 https://example.com/o/1', variables: {} },
        { smsType: 'marketing', content: '双十一全场5折，拒收请回复R', variables: {} },
        { smsType: 'marketing', content: 'Big sale today. Reply R to unsubscribe', variables: {} },
        { content: '满100享50% off，优惠\u3000进行中', variables: {} },
      ]) {
        const res = await create(sms({ name: 'allowed', ...extra }));
        assert.equal(res.statusCode, 201, `${JSON.stringify(extra)}: ${res.body}`);
      }
    });

    it('keeps only the examples of variables the content uses', async () => {
      const tpl = await created(sms({ name: 'trimmed', variables: { code: '4321', unused: 'x' } }));
      assert.deepEqual(tpl.variables, { code: '4321' });
    });
  });

  describe('signatures', () => {
    it('must be the account own and of the template region', async () => {
      const foreign = await create(sms({ signId: otherSignId }), 'zh-cn');
      assert.equal(foreign.statusCode, 400);
      assert.equal(foreign.json().code, 'SMS_TEMPLATE_SIGN_NOT_FOUND');
      assert.equal(foreign.json().error, '所选签名不存在');
      const region = await create(sms({ signId: intlSignId }));
      assert.equal(region.json().code, 'SMS_TEMPLATE_SIGN_REGION');
      const intl = await create(
        sms({
          name: 'intl_code',
          region: 'international',
          signId: intlSignId,
          content: 'Your code is %code%',
        }),
      );
      assert.equal(intl.statusCode, 201, intl.body);
    });

    it('may be under review while writing; submitting needs it passed', async () => {
      const tpl = await created(sms({ name: 'waiting_sign', signId: reviewingSignId }));
      const submitted = await call('POST', `${BASE}/${tpl.id}/submit`, owner, undefined, 'zh-cn');
      assert.equal(submitted.statusCode, 409);
      assert.equal(submitted.json().error, '签名“信使快递”尚未审核通过，请在签名通过后再提交模板审核');
    });

    it('offers the account passed and reviewing signatures to the form', async () => {
      const res = await call('GET', `${BASE}/signs`, owner);
      assert.equal(res.statusCode, 200, res.body);
      const names = res.json().data.map((s: { name: string; status: string }) => `${s.name}:${s.status}`);
      assert.deepEqual(names.sort(), ['Herald:passed', '信使快递:reviewing', '赫耳墨斯:passed']);
    });
  });

  describe('review lifecycle with the operator in /admin/templates', () => {
    it('submit → reject with a reason → edit → submit → pass; an edit of a passed one returns it', async () => {
      const tpl = await created(sms({ name: 'review_me' }));
      assert.equal(tpl.status, 'unsubmitted');
      const submitted = await call('POST', `${BASE}/${tpl.id}/submit`, owner);
      assert.equal(submitted.json().data.status, 'reviewing');
      const again = await call('POST', `${BASE}/${tpl.id}/submit`, owner);
      assert.equal(again.statusCode, 409);
      assert.equal(again.json().code, 'SMS_TEMPLATE_ALREADY_REVIEWING');

      const customerTry = await call('GET', '/v3/api/admin/templates/sms', owner);
      assert.equal(customerTry.statusCode, 403);
      const pending = await call('GET', '/v3/api/admin/templates/sms', operator);
      assert.equal(pending.statusCode, 200, pending.body);
      const entry = pending.json().data.find((x: { id: number }) => x.id === tpl.id);
      assert.equal(entry.accountName, 'smstpl_owner');
      assert.equal(entry.kind, 'sms');
      assert.equal(entry.preview.text, '【赫耳墨斯】您的验证码是123456，5分钟内有效。');
      const emailList = await call('GET', '/v3/api/admin/templates', operator);
      assert.equal(emailList.statusCode, 200);
      assert.ok(!emailList.json().data.some((x: { name: string }) => x.name === 'review_me'));

      const noReason = await call('POST', `/v3/api/admin/templates/sms/${tpl.id}/reject`, operator, {
        reason: '',
      });
      assert.equal(noReason.statusCode, 400);
      const rejected = await call('POST', `/v3/api/admin/templates/sms/${tpl.id}/reject`, operator, {
        reason: '变量用途不明确',
      });
      assert.equal(rejected.statusCode, 200, rejected.body);
      let mine = (await call('GET', `${BASE}/${tpl.id}`, owner)).json().data;
      assert.deepEqual([mine.status, mine.rejectReason], ['rejected', '变量用途不明确']);
      const told = (await t.core.siteMessages.list(owner.ctx, {}, 'zh-cn')).list[0];
      assert.deepEqual(
        [told?.kind, told?.content],
        [
          'sms_template_rejected',
          '短信模板「review_me」未通过审核，原因：变量用途不明确。修改后可重新提交。',
        ],
      );
      const late = await call('POST', `/v3/api/admin/templates/sms/${tpl.id}/approve`, operator);
      assert.equal(late.statusCode, 409);
      assert.equal(late.json().code, 'SMS_TEMPLATE_REVIEW_NOT_PENDING');

      const edited = await call(
        'PUT',
        `${BASE}/${tpl.id}`,
        owner,
        sms({ name: 'review_me', content: '验证码%code%，请勿泄露。' }),
      );
      assert.equal(edited.statusCode, 200, edited.body);
      assert.deepEqual([edited.json().data.status, edited.json().data.rejectReason], ['unsubmitted', null]);
      assert.equal((await call('POST', `${BASE}/${tpl.id}/submit`, owner)).statusCode, 200);
      const approved = await call('POST', `/v3/api/admin/templates/sms/${tpl.id}/approve`, operator);
      assert.equal(approved.statusCode, 200, approved.body);
      mine = (await call('GET', `${BASE}/${tpl.id}`, owner)).json().data;
      assert.equal(mine.status, 'passed');
      assert.equal(
        (await t.core.siteMessages.list(owner.ctx, {}, 'en')).list[0]?.title,
        'SMS template approved',
      );
      const passedAgain = await call('POST', `${BASE}/${tpl.id}/submit`, owner);
      assert.equal(passedAgain.json().code, 'SMS_TEMPLATE_ALREADY_PASSED');

      const reedit = await call('PUT', `${BASE}/${tpl.id}`, owner, sms({ name: 'review_me' }));
      assert.equal(reedit.json().data.status, 'unsubmitted');
    });

    it('lists with filters and paging, previews with the examples, deletes', async () => {
      const listed = await call('GET', `${BASE}?kind=sms&name=review&pageSize=5`, owner);
      assert.equal(listed.statusCode, 200, listed.body);
      assert.deepEqual(
        listed.json().data.list.map((x: { name: string }) => x.name),
        ['review_me'],
      );
      const id = listed.json().data.list[0].id;
      const preview = (await call('GET', `${BASE}/${id}/preview`, owner)).json().data;
      assert.equal(preview.text, '【赫耳墨斯】您的验证码是123456，5分钟内有效。');
      assert.deepEqual([preview.count.parts, preview.count.encoding], [1, 'ucs2']);
      const byStatus = await call('GET', `${BASE}?status=passed`, owner);
      assert.equal(byStatus.json().data.total, 0);
      assert.equal((await call('DELETE', `${BASE}/${id}`, owner)).statusCode, 204);
      assert.equal((await call('GET', `${BASE}/${id}`, owner)).statusCode, 404);
    });
  });

  it('reverts passed marketing templates idle for a month to unsubmitted', async () => {
    const now = Date.now();
    const { db } = t.core.database;
    const make = async (name: string, smsType: string, updatedAt: number, lastSentAt: number | null) => {
      const content = smsType === 'marketing' ? '新品上市，拒收请回复R' : '您的订单已发货';
      const tpl = await created(sms({ name, smsType, content, variables: {} }));
      await db
        .updateTable('sms_templates')
        .set({ status: 'passed', updated_at: updatedAt, last_sent_at: lastSentAt })
        .where('id', '=', tpl.id)
        .execute();
      return tpl.id;
    };
    const neverSent = await make('idle_never', 'marketing', now - 31 * DAY, null);
    const sentLately = await make('idle_recent', 'marketing', now - 60 * DAY, now - 10 * DAY);
    const sentLongAgo = await make('idle_old', 'marketing', now - 60 * DAY, now - 40 * DAY);
    const passedLately = await make('idle_new', 'marketing', now - 5 * DAY, null);
    const notice = await make('idle_notice', 'notice', now - 90 * DAY, null);

    assert.equal(await t.core.smsTemplates.revertIdleMarketing(now), 2);
    const statusOf = async (id: number) => (await call('GET', `${BASE}/${id}`, owner)).json().data.status;
    assert.equal(await statusOf(neverSent), 'unsubmitted');
    assert.equal(await statusOf(sentLongAgo), 'unsubmitted');
    assert.equal(await statusOf(sentLately), 'passed');
    assert.equal(await statusOf(passedLately), 'passed');
    assert.equal(await statusOf(notice), 'passed');
  });

  it('is the account own: another account gets 404 for every call', async () => {
    const tpl = await created(sms({ name: 'mine_only' }));
    for (const [method, url, body] of [
      ['GET', `${BASE}/${tpl.id}`],
      ['GET', `${BASE}/${tpl.id}/preview`],
      ['PUT', `${BASE}/${tpl.id}`, sms({ signId: otherSignId })],
      ['POST', `${BASE}/${tpl.id}/submit`],
      ['DELETE', `${BASE}/${tpl.id}`],
    ] as const) {
      const res = await call(method, url, other, body);
      assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
      assert.equal(res.json().code, 'SMS_TEMPLATE_NOT_FOUND');
    }
    const theirs = (await call('GET', BASE, other)).json().data;
    assert.equal(theirs.total, 0);
  });

  it('needs permission code 18: a member without it gets 403', async () => {
    const member = await joinedMember(t, owner, 'smstpl_nosend', {
      type: 'custom',
      levels: { [P.SMS_DATA]: 'full' },
    });
    assert.equal((await call('GET', BASE, member)).statusCode, 403);
    assert.equal((await create(sms({ name: 'by_member' }), 'en', member)).statusCode, 403);
    const sender = await joinedMember(t, owner, 'smstpl_send', {
      type: 'custom',
      levels: { [P.SMS_SEND]: 'full' },
    });
    assert.equal((await create(sms({ name: 'by_sender' }), 'en', sender)).statusCode, 201);
  });

  describe('voice templates', () => {
    const voice = (extra: object = {}) => ({
      kind: 'voice',
      name: 'voice_code',
      content: '您的验证码是%code%，请尽快使用。',
      variables: { code: '2580' },
      ...extra,
    });
    it('hold exactly one %code%, with an example of 4-6 digits', async () => {
      for (const content of ['您的验证码已发送', '验证码%code%，订单%order%', '验证码%code%，重复%code%']) {
        const res = await create(voice({ content, variables: { code: '1234', order: '9' } }), 'zh-cn');
        assert.equal(fieldMessage(res, 'content'), '语音模板须包含且只能包含一个变量 %code%', content);
      }
      for (const code of ['123', '1234567', '12a4']) {
        const res = await create(voice({ variables: { code } }));
        assert.equal(fieldMessage(res, 'variables.code'), 'The code example must be 4 to 6 digits', code);
      }
    });
    it('are domestic verification-code templates, may go without a signature, and submit', async () => {
      const tpl = await created(voice());
      const view = (await call('GET', `${BASE}/${tpl.id}`, owner)).json().data;
      assert.deepEqual(
        [view.kind, view.smsType, view.region, view.signId],
        ['voice', 'code', 'domestic', null],
      );
      assert.equal((await call('POST', `${BASE}/${tpl.id}/submit`, owner)).json().data.status, 'reviewing');
    });
  });

  describe('MMS templates', () => {
    /** A file whose bytes start as a PNG's do, `size` bytes long. */
    const png = (size: number) => {
      const bytes = Buffer.alloc(size);
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
      return { name: 'a.png', type: 'image/png', data: bytes.toString('base64') };
    };
    const mms = (extra: object = {}) => ({
      kind: 'mms',
      name: 'mms_news',
      smsType: 'notice',
      signId,
      title: '新品通知',
      pages: [{ text: '尊敬的%name%，新品到店。', image: png(2000) }],
      variables: { name: '张三' },
      ...extra,
    });

    it('have 1-3 non-empty pages of valid media under 100 KB, and a title', async () => {
      const none = await create(mms({ pages: [] }), 'zh-cn');
      assert.equal(fieldMessage(none, 'pages'), '彩信须有1到3页');
      const four = await create(mms({ pages: [{ text: 'a' }, { text: 'b' }, { text: 'c' }, { text: 'd' }] }));
      assert.equal(fieldMessage(four, 'pages'), 'An MMS has 1 to 3 pages');
      const empty = await create(mms({ pages: [{ text: 'a' }, { text: ' ' }] }), 'zh-cn');
      assert.equal(fieldMessage(empty, 'pages.1.text'), '每一页至少要有文字、图片或音频之一');
      const fake = await create(
        mms({ pages: [{ image: { name: 'a.png', type: 'image/png', data: 'aGVsbG8=' } }] }),
      );
      assert.equal(fieldMessage(fake, 'pages.0.image'), 'The image must be a jpg, png or gif file');
      const big = await create(
        mms({ pages: [{ image: png(50_000) }, { image: png(40_000) }, { image: png(20_000) }] }),
        'zh-cn',
      );
      assert.equal(fieldMessage(big, 'pages'), '彩信总大小须小于100KB');
      const untitled = await create(mms({ title: '' }));
      assert.equal(fieldMessage(untitled, 'title'), 'Enter the MMS title, at most 40 characters');
    });

    it('keep their pages and report their size; lists leave the media out', async () => {
      const tpl = await created(mms());
      const view = (await call('GET', `${BASE}/${tpl.id}`, owner)).json().data;
      assert.equal(view.content, '新品通知');
      assert.equal(view.pages[0].image.data, png(2000).data);
      assert.deepEqual(view.mms, {
        pageCount: 1,
        bytes: 12 + 2000 + Buffer.byteLength('尊敬的%name%，新品到店。'),
      });
      const listed = (await call('GET', `${BASE}?kind=mms`, owner)).json().data.list[0];
      assert.equal(listed.pages, null);
      assert.equal(listed.mms.pageCount, 1);
      const preview = (await call('GET', `${BASE}/${tpl.id}/preview`, owner)).json().data;
      assert.equal(preview.pages[0].text, '尊敬的张三，新品到店。');
    });
  });

  describe('the send path', () => {
    it('forSend: 431 for none of the account, 432 unless passed; the template with its signature', async () => {
      const tpl = await created(sms({ name: 'for_send' }));
      await assert.rejects(t.core.smsTemplates.forSend(other.ctx, tpl.id), (error: AppError) => {
        assert.equal(error.code, 'SMS_TEMPLATE_NOT_FOUND');
        assert.equal(ERRORS[error.code].sendCloud, 431);
        return true;
      });
      await assert.rejects(t.core.smsTemplates.forSend(owner.ctx, tpl.id), (error: AppError) => {
        assert.equal(error.code, 'SMS_TEMPLATE_NOT_PASSED');
        assert.equal(ERRORS[error.code].sendCloud, 432);
        return true;
      });
      await call('POST', `${BASE}/${tpl.id}/submit`, owner);
      await call('POST', `/v3/api/admin/templates/sms/${tpl.id}/approve`, operator);
      const sendable = await t.core.smsTemplates.forSend(owner.ctx, tpl.id);
      assert.deepEqual(
        [sendable.signName, sendable.content, sendable.variables],
        ['赫耳墨斯', '您的验证码是%code%，5分钟内有效。', { code: '123456' }],
      );

      await t.core.smsTemplates.markSent(owner.ctx, tpl.id, 5_000);
      await t.core.smsTemplates.markSent(owner.ctx, tpl.id, 4_000);
      const row = await findTemplate(t.core.database, owner.ctx.accountId, tpl.id);
      assert.equal(row?.last_sent_at, 5_000);
      const fields = toSendCloudTemplate(row as NonNullable<typeof row>);
      assert.deepEqual(
        { ...fields, createTime: undefined, updateTime: undefined },
        {
          templateId: tpl.id,
          templateName: 'for_send',
          msgType: 0,
          smsType: 0,
          isVerify: 1,
          templateContent: '您的验证码是%code%，5分钟内有效。',
          createTime: undefined,
          updateTime: undefined,
        },
      );
      assert.match(fields.createTime, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      assert.ok(new AppError('SMS_TEMPLATE_NOT_PASSED').message.length > 0);
    });
  });
});
