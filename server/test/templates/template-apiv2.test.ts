import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createApiUser } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner } from '../helpers/members.ts';
import { api, operatorSession } from './template-helpers.ts';

/**
 * SendCloud's template calls through plain form posts and GET query strings, exactly as
 * email_v2/template_do.md shows them: template/add (submits for review by default), list with
 * templateType / templateStat, get, update, submit and cancel, delete; codes in the envelope.
 */
/** The parts of SendCloud's envelope these calls answer with. */
interface Envelope {
  result: boolean;
  statusCode: number;
  message: string;
  info: {
    data: Record<string, string | number | null>;
    dataList: { invokeName: string }[];
    total: number;
    count: number;
  };
}

describe('email templates: SendCloud-compatible template/*', () => {
  let t: TestApp;
  let creds: { apiUser: string; apiKey: string };
  let otherCreds: { apiUser: string; apiKey: string };

  before(async () => {
    t = await buildTestApp();
    const owner = await createOwner(t, 'v2_owner');
    const other = await createOwner(t, 'v2_other');
    const mine = await createApiUser(t.core.database, owner.ctx.accountId, { name: 'v2_api_user' });
    const theirs = await createApiUser(t.core.database, other.ctx.accountId, { name: 'v2_other_user' });
    creds = { apiUser: mine.name, apiKey: mine.apiKey };
    otherCreds = { apiUser: theirs.name, apiKey: theirs.apiKey };
  });
  after(() => t.close());

  const post = async (path: string, fields: Record<string, string>, who = creds, lang?: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/apiv2/${path}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(lang ? { lang } : {}) },
      payload: new URLSearchParams({ ...who, ...fields }).toString(),
    });
    assert.equal(res.statusCode, 200);
    return res.json() as Envelope;
  };
  const get = async (path: string, fields: Record<string, string>) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/apiv2/${path}?${new URLSearchParams({ ...creds, ...fields })}`,
    });
    return res.json() as Envelope;
  };

  it('template/add creates and submits for review (isSubmitAudit defaults to 1)', async () => {
    const body = await post('template/add', {
      invokeName: 'testtemplate',
      name: 'test',
      html: '<p>add new template %name%</p>',
      subject: 'test_subject',
      templateType: '1',
    });
    assert.equal(body.result, true, body.message);
    assert.equal(body.statusCode, 200);
    assert.equal(body.info.data.invokeName, 'testtemplate');
    assert.equal(body.info.data.templateType, 1);
    assert.equal(body.info.data.templateStat, 0, 'pending');
    assert.match(String(body.info.data.gmtCreated), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

    const draft = await post('template/add', {
      invokeName: 'draft_one',
      name: 'draft',
      html: '<p>x</p>',
      subject: 's',
      templateType: '0',
      isSubmitAudit: '0',
      contentSummary: 'short',
    });
    assert.equal(draft.info.data.templateStat, -2, 'not submitted');
    assert.equal(draft.info.data.contentSummary, 'short');
  });

  it('template/add refuses bad input with SendCloud codes and localised messages', async () => {
    const taken = await post(
      'template/add',
      { invokeName: 'testtemplate', name: 'again', html: '<p>x</p>', subject: 's', templateType: '1' },
      creds,
      'en',
    );
    assert.equal(taken.result, false);
    assert.equal(taken.statusCode, 40213);
    assert.equal(taken.message, 'invokeName is already existed');
    const zh = await post(
      'template/add',
      { invokeName: 'testtemplate', name: 'again', html: '<p>x</p>', subject: 's', templateType: '1' },
      creds,
      'zh-cn',
    );
    assert.equal(zh.message, '调用名称已存在');
    const noHtml = await post(
      'template/add',
      { invokeName: 'x1', name: 'x', subject: 's', templateType: '1' },
      creds,
      'en',
    );
    assert.equal(noHtml.result, false);
    assert.equal(noHtml.statusCode, 400);
    assert.equal(noHtml.message, 'The entered data is not valid: html This field is required');
    const badName = await post(
      'template/add',
      { invokeName: 'x1', name: 'bad-name', html: '<p>x</p>', subject: 's', templateType: '1' },
      creds,
      'zh-cn',
    );
    assert.match(badName.message, /name 模板名称最多64个字符，只能包含字母、数字和下划线/);
    const badType = await post('template/add', {
      invokeName: 'x2',
      name: 'x',
      html: '<p>x</p>',
      subject: 's',
      templateType: '7',
    });
    assert.equal(badType.result, false);
    const badAuth = await post('template/list', {}, { apiUser: creds.apiUser, apiKey: 'wrong' });
    assert.equal(badAuth.statusCode, 40005);
  });

  it('template/list filters by templateType and templateStat (alias isVerify) and pages with start/limit', async () => {
    const all = await get('template/list', {});
    assert.equal(all.result, true);
    assert.equal(all.info.total, 2);
    const pending = await get('template/list', { templateStat: '0' });
    assert.deepEqual(
      pending.info.dataList.map((d: { invokeName: string }) => d.invokeName),
      ['testtemplate'],
    );
    const notSubmitted = await get('template/list', { isVerify: '-2' });
    assert.deepEqual(
      notSubmitted.info.dataList.map((d: { invokeName: string }) => d.invokeName),
      ['draft_one'],
    );
    const trigger = await get('template/list', { templateType: '0' });
    assert.equal(trigger.info.count, 1);
    const paged = await get('template/list', { start: '1', limit: '1' });
    assert.equal(paged.info.count, 1);
    assert.equal(paged.info.total, 2);
    const bad = await get('template/list', { templateStat: '5' });
    assert.equal(bad.result, false);
  });

  it('template/get returns the content; another account cannot see it', async () => {
    const body = await get('template/get', { invokeName: 'testtemplate' });
    assert.equal(body.info.data.html, '<p>add new template %name%</p>');
    assert.equal(body.info.data.subject, 'test_subject');
    const theirs = await post('template/get', { invokeName: 'testtemplate' }, otherCreds);
    assert.equal(theirs.result, false);
    assert.equal(theirs.statusCode, 40208);
  });

  it('template/submit with cancel=1 withdraws; cancelling again is 40229', async () => {
    const cancel = await post('template/submit', { invokeName: 'testtemplate', cancel: '1' });
    assert.equal(cancel.result, true, cancel.message);
    assert.equal(cancel.info.count, 1);
    const again = await post('template/submit', { invokeName: 'testtemplate', cancel: '1' }, creds, 'zh-cn');
    assert.equal(again.result, false);
    assert.equal(again.statusCode, 40229);
    assert.equal(again.message, '模板还未提交审核, 无法撤销审核');
    const submit = await post('template/submit', { invokeName: 'testtemplate' });
    assert.equal(submit.result, true);
    assert.equal((await get('template/get', { invokeName: 'testtemplate' })).info.data.templateStat, 0);
  });

  it('after an operator approves, template/get says 1; template/update returns it to review', async () => {
    const operator = await operatorSession(t);
    const call = api(t);
    const list = await call('GET', '/v3/api/admin/templates', operator);
    const entry = list.json().data.find((x: { invokeName: string }) => x.invokeName === 'testtemplate');
    await call('POST', `/v3/api/admin/templates/${entry.id}/approve`, operator);
    assert.equal((await get('template/get', { invokeName: 'testtemplate' })).info.data.templateStat, 1);

    const updated = await post('template/update', {
      invokeName: 'testtemplate',
      html: '<p>update template</p>',
      isSubmitAudit: '0',
    });
    assert.equal(updated.result, true, updated.message);
    assert.equal(updated.info.count, 1);
    const after = (await get('template/get', { invokeName: 'testtemplate' })).info.data;
    assert.equal(after.html, '<p>update template</p>');
    assert.equal(after.subject, 'test_subject', 'fields not given are kept');
    assert.equal(after.templateStat, -2);
  });

  it('template/delete removes it; deleting again is not found', async () => {
    const deleted = await get('template/delete', { invokeName: 'draft_one' });
    assert.equal(deleted.result, true);
    assert.equal(deleted.info.count, 1);
    const again = await get('template/delete', { invokeName: 'draft_one' });
    assert.equal(again.result, false);
    assert.equal(again.statusCode, 40208);
  });
});
