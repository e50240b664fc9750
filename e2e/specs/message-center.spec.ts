import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Herald, startHerald } from '@herald/test-peers';
import type { Browser, Page } from 'playwright-core';
import { createTestUser, operatorUser, type TestUser } from '../harness/accounts.ts';
import { launchBrowser, withPage } from '../harness/browser.ts';
import { logIn, waitForShell } from '../harness/console.ts';

/**
 * The message centre against a real Herald: the operator decides two template reviews; the
 * customer sees the header badge count them, reads them in English and Chinese with the reason
 * of the rejection, marks one read and then all, and the badge follows. A new account sees the
 * empty state with its next step.
 */
let herald: Herald;
let browser: Browser;
let customer: TestUser;
let operator: TestUser;

before(async () => {
  [herald, browser] = await Promise.all([startHerald(), launchBrowser()]);
  customer = await createTestUser(herald);
  operator = await operatorUser(herald);
});

after(async () => {
  await browser?.close();
  await herald?.stop();
});

async function call(who: TestUser, method: string, path: string, body?: object): Promise<Response> {
  const response = await fetch(`${herald.url}/v3/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${who.token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  assert.ok(response.ok, `${method} ${path}: ${response.status} ${await response.clone().text()}`);
  return response;
}

async function reviewedTemplate(invokeName: string, decision: 'approve' | 'reject'): Promise<void> {
  const created = await call(customer, 'POST', '/mail/templates', {
    name: invokeName,
    invokeName,
    templateType: 'trigger',
    subject: 'Hello %name%',
    html: '<p>Hello %name%</p>',
  });
  const { id } = ((await created.json()) as { data: { id: number } }).data;
  await call(customer, 'POST', `/mail/templates/commitVerify/${id}`);
  await call(
    operator,
    'POST',
    `/admin/templates/${id}/${decision}`,
    decision === 'reject' ? { reason: 'no unsubscribe link' } : undefined,
  );
}

const badge = (page: Page) => page.locator('.ant-badge:has([data-testid="message-badge"]) .ant-badge-count');

test('review decisions arrive in the message centre; reading them clears the badge', (t) =>
  withPage(browser, t, async (page) => {
    await reviewedTemplate('msg_e2e_passed', 'approve');
    await reviewedTemplate('msg_e2e_rejected', 'reject');
    await logIn(page.context(), herald, customer);

    await page.goto(`${herald.url}/accountSetting/messageCenter?lang=en`);
    await waitForShell(page);
    await badge(page).filter({ hasText: '2' }).waitFor();
    const items = page.locator('.messages-item');
    await items.first().locator('.messages-title', { hasText: 'Email template rejected' }).waitFor();
    assert.equal(
      await items.first().locator('.messages-content').textContent(),
      'The email template "msg_e2e_rejected" was rejected: no unsubscribe link. Edit it and submit it again.',
    );
    assert.equal(await items.nth(1).locator('.messages-title').textContent(), 'Email template approved');
    assert.equal(await page.locator('.messages-item-unread').count(), 2);
    await page.locator('.messages-total', { hasText: '2 in all, 2 unread' }).waitFor();

    await items.first().locator('.messages-mark-read').click();
    await page.locator('.messages-total', { hasText: '2 in all, 1 unread' }).waitFor();
    await badge(page).filter({ hasText: '1' }).waitFor();
    assert.equal(await page.locator('.messages-item-unread').count(), 1);

    await page.locator('.messages-read-filter').getByText('Unread').click();
    await page
      .locator('.messages-item')
      .first()
      .locator('.messages-title', { hasText: 'Email template approved' })
      .waitFor();
    assert.equal(await page.locator('.messages-item').count(), 1);
    await page.locator('.messages-read-all').click();
    await page.locator('.http-toast-success', { hasText: 'All messages marked as read' }).waitFor();
    await page.locator('.messages-list .ant-empty-description', { hasText: 'No unread messages' }).waitFor();
    await badge(page).waitFor({ state: 'detached' });

    await page.goto(`${herald.url}/accountSetting/messageCenter?lang=zh-cn`);
    await page.locator('.messages-title', { hasText: '邮件模板审核未通过' }).waitFor();
    await page.locator('.messages-content', { hasText: '原因：no unsubscribe link' }).waitFor();
    await page.locator('.messages-item').first().locator('.messages-view').click();
    await page.waitForURL(/\/sendRelative\/template/);
  }));

test('a new account sees the empty message centre with its next step', (t) =>
  withPage(browser, t, async (page) => {
    const newcomer = await createTestUser(herald);
    await logIn(page.context(), herald, newcomer);
    await page.goto(`${herald.url}/accountSetting/messageCenter?lang=en`);
    await waitForShell(page);
    await page.locator('.messages-list .ant-empty-description', { hasText: 'No messages yet' }).waitFor();
    await page.locator('.messages-list').getByRole('button', { name: 'Create a template' }).click();
    await page.waitForURL(/\/sendRelative\/template/);
  }));

test('message settings: notifiers checked in both languages, mail turned off with an undo, SMS for paid accounts', (t) =>
  withPage(browser, t, async (page) => {
    const user = await createTestUser(herald);
    await logIn(page.context(), herald, user);
    await page.goto(`${herald.url}/accountSetting/messageCenter/setMessage?lang=zh-cn`);
    await waitForShell(page);
    await page.locator('.message-notifier-kind').click();
    await page.locator('.ant-select-item-option', { hasText: '手机号' }).click();
    await page.locator('.message-notifier-address').fill('12345');
    await page.locator('.message-notifier-add').click();
    await page.locator('.ant-form-item-explain-error', { hasText: '请输入11位中国大陆手机号' }).waitFor();

    await page.goto(`${herald.url}/accountSetting/messageCenter/setMessage?lang=en`);
    await page.locator('.message-notifiers-owner', { hasText: `${user.userName}@example.com` }).waitFor();
    assert.equal(
      await page.locator('.message-setting-sms-review').isDisabled(),
      true,
      'SMS is for paid accounts',
    );
    await page.locator('.message-notifier-address').fill('not-an-address');
    await page.locator('.message-notifier-add').click();
    await page.locator('.ant-form-item-explain-error', { hasText: 'Invalid email format' }).waitFor();
    await page.locator('.message-notifier-address').fill('ops@example.com');
    await page.locator('.message-notifier-add').click();
    await page.locator('.message-notifier-address-text', { hasText: 'ops@example.com' }).waitFor();
    await page.locator('.message-notifiers .ant-form-item-explain-error').waitFor({ state: 'detached' });
    await page.locator('.message-notifiers-owner').waitFor({ state: 'detached' });

    const reviewMail = page.locator('.message-setting-email-review');
    assert.equal(await reviewMail.getAttribute('aria-checked'), 'true', 'mail is on by default');
    await reviewMail.click();
    await page.locator('.message-setting-email-review[aria-checked="false"]').waitFor();
    await page.locator('.http-toast-success', { hasText: 'Saved' }).locator('.toast-action').click();
    await page.locator('.message-setting-email-review[aria-checked="true"]').waitFor();
    await page.locator('.http-toast-success', { hasText: 'Saved' }).waitFor({ state: 'detached' });
    await reviewMail.click();
    await page.locator('.http-toast-success', { hasText: 'Saved' }).waitFor();
    await page.locator('.message-setting-email-review[aria-checked="false"]').waitFor();
    await page.reload();
    await page.locator('.message-setting-email-review[aria-checked="false"]').waitFor();
    assert.equal(
      await page.locator('.message-setting-email-balance').getAttribute('aria-checked'),
      'true',
      'each kind keeps its own setting',
    );

    await page.locator('.message-notifier-remove').click();
    await page.locator('.ant-popconfirm:visible .message-notifier-remove-ok').click();
    await page.locator('.message-notifiers-list .ant-empty-description').waitFor();
    await page.locator('.message-notifiers-owner').waitFor();
  }));
