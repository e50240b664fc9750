import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AppError } from '@herald/shared';
import { TASKS } from '../../src/worker/registry.ts';
import { expireTemplateApproval } from '../../src/worker/tasks/expire-template-approval.task.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { createOwner, joinedMember, type SignedIn } from '../helpers/members.ts';
import { api, operatorSession, SAMPLE } from './template-helpers.ts';

const DAY = 24 * 3600_000;

/**
 * The review lifecycle of product-spec §4: unsubmitted → reviewing (commitVerify) → passed or
 * rejected with a reason by a platform operator; cancelVerify returns it to unsubmitted; an edit
 * of a passed or rejected template returns it to unsubmitted; a passed batch template unused for
 * a month returns to unsubmitted. The review calls are the operator's alone.
 */
describe('email templates: review lifecycle', () => {
  let t: TestApp;
  let call: ReturnType<typeof api>;
  let owner: SignedIn;
  let operator: SignedIn;

  before(async () => {
    t = await buildTestApp();
    call = api(t);
    owner = await createOwner(t, 'rev_owner');
    operator = await operatorSession(t);
  });
  after(() => t.close());

  const newTemplate = async (invokeName: string, extra: object = {}) => {
    const res = await call('POST', '/v3/api/mail/templates', owner, { ...SAMPLE, invokeName, ...extra });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data.id as number;
  };
  const statusOf = async (id: number) =>
    (await call('GET', `/v3/api/mail/templates/${id}`, owner)).json().data as {
      status: string;
      rejectReason: string | null;
    };

  it('submit → the operator sees it with the account name → approve → passed', async () => {
    const id = await newTemplate('to_approve');
    const submitted = await call('POST', `/v3/api/mail/templates/commitVerify/${id}`, owner);
    assert.equal(submitted.statusCode, 200, submitted.body);
    assert.equal(submitted.json().data.status, 'reviewing');

    const pending = await call('GET', '/v3/api/admin/templates', operator);
    assert.equal(pending.statusCode, 200, pending.body);
    const entry = pending.json().data.find((x: { id: number }) => x.id === id);
    assert.equal(entry.accountName, 'rev_owner');
    assert.equal(entry.invokeName, 'to_approve');
    const detail = await call('GET', `/v3/api/admin/templates/${id}`, operator);
    assert.equal(detail.json().data.html, SAMPLE.html);

    const approved = await call('POST', `/v3/api/admin/templates/${id}/approve`, operator);
    assert.equal(approved.statusCode, 200, approved.body);
    assert.equal((await statusOf(id)).status, 'passed');
    const after = await call('GET', '/v3/api/admin/templates', operator);
    assert.ok(!after.json().data.some((x: { id: number }) => x.id === id), 'no longer pending');

    const again = await call('POST', `/v3/api/admin/templates/${id}/approve`, operator);
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().code, 'TEMPLATE_REVIEW_NOT_PENDING');
    const resubmit = await call(
      'POST',
      `/v3/api/mail/templates/commitVerify/${id}`,
      owner,
      undefined,
      'zh-cn',
    );
    assert.equal(resubmit.statusCode, 400);
    assert.equal(resubmit.json().message, '模板已审核通过，无需再次提交');
  });

  it('reject needs a reason; the customer sees the reason; resubmitting clears it', async () => {
    const id = await newTemplate('to_reject');
    await call('POST', `/v3/api/mail/templates/commitVerify/${id}`, owner);
    for (const [lang, message] of [
      ['en', 'Give a reason for the rejection (at most 500 characters)'],
      ['zh-cn', '请填写驳回原因（最多500个字符）'],
    ] as const) {
      const noReason = await call(
        'POST',
        `/v3/api/admin/templates/${id}/reject`,
        operator,
        { reason: ' ' },
        lang,
      );
      assert.equal(noReason.statusCode, 400);
      assert.equal(noReason.json().fields[0].message, message);
    }
    const rejected = await call('POST', `/v3/api/admin/templates/${id}/reject`, operator, {
      reason: 'Links to an unknown domain',
    });
    assert.equal(rejected.statusCode, 200, rejected.body);
    assert.deepEqual(await statusOf(id), {
      ...(await statusOf(id)),
      status: 'rejected',
      rejectReason: 'Links to an unknown domain',
    });
    const resubmitted = await call('POST', `/v3/api/mail/templates/commitVerify/${id}`, owner);
    assert.equal(resubmitted.json().data.status, 'reviewing');
    assert.equal(resubmitted.json().data.rejectReason, null);
  });

  it('cancelVerify returns a reviewing template to unsubmitted; otherwise 40229 in both languages', async () => {
    const id = await newTemplate('to_cancel');
    for (const [lang, message] of [
      ['en', 'The template is not under review, so its review cannot be cancelled'],
      ['zh-cn', '模板还未提交审核, 无法撤销审核'],
    ] as const) {
      const res = await call('POST', `/v3/api/mail/templates/cancelVerify/${id}`, owner, undefined, lang);
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().message, message);
    }
    await call('POST', `/v3/api/mail/templates/commitVerify/${id}`, owner);
    const twice = await call('POST', `/v3/api/mail/templates/commitVerify/${id}`, owner);
    assert.equal(twice.json().code, 'TEMPLATE_UNDER_REVIEW');
    const cancelled = await call('POST', `/v3/api/mail/templates/cancelVerify/${id}`, owner);
    assert.equal(cancelled.statusCode, 200);
    assert.equal(cancelled.json().data.status, 'unsubmitted');
    const approve = await call('POST', `/v3/api/admin/templates/${id}/approve`, operator);
    assert.equal(approve.statusCode, 409, 'a withdrawn template cannot be approved');
  });

  it('a template under review cannot be edited; editing a passed or rejected one returns it to unsubmitted', async () => {
    const id = await newTemplate('to_edit');
    await call('POST', `/v3/api/mail/templates/commitVerify/${id}`, owner);
    const frozen = await call('PUT', `/v3/api/mail/templates/${id}`, owner, {
      ...SAMPLE,
      invokeName: 'to_edit',
    });
    assert.equal(frozen.statusCode, 400);
    assert.equal(frozen.json().message, 'The template is under review; cancel the review before changing it');
    await call('POST', `/v3/api/admin/templates/${id}/approve`, operator);
    const edited = await call('PUT', `/v3/api/mail/templates/${id}`, owner, {
      ...SAMPLE,
      invokeName: 'to_edit',
      html: '<p>new</p>',
    });
    assert.equal(edited.statusCode, 200, edited.body);
    assert.equal(edited.json().data.status, 'unsubmitted');

    await call('POST', `/v3/api/mail/templates/commitVerify/${id}`, owner);
    await call('POST', `/v3/api/admin/templates/${id}/reject`, operator, { reason: 'no' });
    const fixed = await call('PUT', `/v3/api/mail/templates/${id}`, owner, {
      ...SAMPLE,
      invokeName: 'to_edit',
    });
    assert.equal(fixed.json().data.status, 'unsubmitted');
    assert.equal(fixed.json().data.rejectReason, null);
  });

  it('the review calls are for platform operators only: customers get 403', async () => {
    const id = await newTemplate('customer_tries');
    await call('POST', `/v3/api/mail/templates/commitVerify/${id}`, owner);
    const admin = await joinedMember(t, owner, 'rev_admin', { type: 'administrator' });
    for (const who of [owner, admin]) {
      for (const [method, url, body] of [
        ['GET', '/v3/api/admin/templates'],
        ['GET', `/v3/api/admin/templates/${id}`],
        ['POST', `/v3/api/admin/templates/${id}/approve`],
        ['POST', `/v3/api/admin/templates/${id}/reject`, { reason: 'x' }],
      ] as [string, string, object?][]) {
        const res = await call(method, url, who, body);
        assert.equal(res.statusCode, 403, `${method} ${url}`);
      }
    }
    assert.equal((await call('GET', '/v3/api/admin/templates', null)).statusCode, 401);
    assert.equal((await statusOf(id)).status, 'reviewing');
    const info = await call('GET', '/v3/api/userInfo', operator);
    assert.equal(info.json().data.platformOperator, true);
    assert.equal((await call('GET', '/v3/api/userInfo', owner)).json().data.platformOperator, false);
  });

  it('findSendableTemplate: 40823 when missing, 40824 until passed; markUsed records the send', async () => {
    const templates = t.core.templates;
    const code = async (invokeName: string) => {
      try {
        await templates.findSendableTemplate(owner.ctx, invokeName);
        return 'ok';
      } catch (error) {
        assert.ok(error instanceof AppError);
        return error.code;
      }
    };
    assert.equal(await code('nothing_here'), 'TEMPLATE_SEND_MISSING');
    const id = await newTemplate('sendable');
    assert.equal(await code('sendable'), 'TEMPLATE_SEND_NOT_APPROVED');
    await call('POST', `/v3/api/mail/templates/commitVerify/${id}`, owner);
    assert.equal(await code('sendable'), 'TEMPLATE_SEND_NOT_APPROVED');
    await call('POST', `/v3/api/admin/templates/${id}/approve`, operator);
    const row = await templates.findSendableTemplate(owner.ctx, 'sendable');
    assert.equal(row.html, SAMPLE.html);
    const other = await createOwner(t, 'rev_stranger');
    await assert.rejects(templates.findSendableTemplate(other.ctx, 'sendable'), {
      code: 'TEMPLATE_SEND_MISSING',
    });
    await templates.markUsed(id, 1234);
    const stored = await t.core.database.db
      .selectFrom('email_templates')
      .select('last_used_at')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.equal(Number(stored.last_used_at), 1234);
  });

  it('a passed batch template unused for a month returns to unsubmitted (the hourly task)', async () => {
    assert.ok(
      TASKS.some((task) => task.job === expireTemplateApproval),
      'registered in the worker registry',
    );
    const approve = async (invokeName: string, templateType: string) => {
      const id = await newTemplate(invokeName, { templateType });
      await call('POST', `/v3/api/mail/templates/commitVerify/${id}`, owner);
      await call('POST', `/v3/api/admin/templates/${id}/approve`, operator);
      return id;
    };
    const now = Date.now();
    const set = (id: number, patch: { reviewed_at?: number; last_used_at?: number | null }) =>
      t.core.database.db.updateTable('email_templates').set(patch).where('id', '=', id).execute();

    const staleNeverUsed = await approve('batch_stale', 'batch');
    await set(staleNeverUsed, { reviewed_at: now - 31 * DAY });
    const staleUsed = await approve('batch_used_long_ago', 'batch');
    await set(staleUsed, { reviewed_at: now - 90 * DAY, last_used_at: now - 31 * DAY });
    const recentlyUsed = await approve('batch_recent', 'batch');
    await set(recentlyUsed, { reviewed_at: now - 90 * DAY, last_used_at: now - 2 * DAY });
    const freshApproval = await approve('batch_fresh', 'batch');
    const trigger = await approve('trigger_old', 'trigger');
    await set(trigger, { reviewed_at: now - 90 * DAY });

    await expireTemplateApproval.handle(t.core, undefined as never, new AbortController().signal);
    assert.equal((await statusOf(staleNeverUsed)).status, 'unsubmitted');
    assert.equal((await statusOf(staleUsed)).status, 'unsubmitted');
    assert.equal((await statusOf(recentlyUsed)).status, 'passed');
    assert.equal((await statusOf(freshApproval)).status, 'passed');
    assert.equal((await statusOf(trigger)).status, 'passed', 'trigger templates keep their approval');
  });
});
