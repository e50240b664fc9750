import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Herald, startHerald } from '@herald/test-peers';
import type { Browser, Page } from 'playwright-core';
import { createTestUser, type TestUser } from '../harness/accounts.ts';
import { launchBrowser, openPage, withPage } from '../harness/browser.ts';
import { logIn, waitForShell } from '../harness/console.ts';
import { solveSlider } from '../harness/human-checks.ts';

/**
 * Email templates and their review against a real Herald: a customer writes a template in the
 * rich-text editor, previews it in a sandboxed frame (its script does not run), submits it; the
 * platform operator logs in with the credentials Herald was started with, finds it in /admin and
 * approves it, or rejects another with a reason the customer then sees. Also: the drag-and-drop
 * editor loads grapesjs from Herald itself and saves a design that opens again.
 */
const OPERATOR_PASSWORD = 'Operator#2026';
let herald: Herald;
let browser: Browser;
let customer: TestUser;

before(async () => {
  [herald, browser] = await Promise.all([
    startHerald({ env: { HERALD_ADMIN_PASSWORD: OPERATOR_PASSWORD, HERALD_ADMIN_EMAIL: 'ops@example.com' } }),
    launchBrowser(),
  ]);
  customer = await createTestUser(herald);
});

after(async () => {
  await browser?.close();
  await herald?.stop();
});

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${herald.url}/v3/api${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${customer.token}`,
      ...(init.body ? { 'content-type': 'application/json' } : {}),
    },
  });

async function confirm(page: Page): Promise<void> {
  await page.locator('.ant-popconfirm:visible .ant-btn-primary').click();
}

/** The operator logs in through the login form as `admin` with HERALD_ADMIN_PASSWORD. */
async function operatorPage(): Promise<{ page: Page; close: () => Promise<void> }> {
  const { context, page } = await openPage(browser);
  await page.goto(`${herald.url}/login`);
  await page.locator('#username').fill('admin');
  await page.locator('#password').fill(OPERATOR_PASSWORD);
  await solveSlider(page, herald);
  await page.getByTestId('login-submit').click();
  await waitForShell(page);
  await page.goto(`${herald.url}/admin/templates`);
  await page.locator('.admin-templates-page').waitFor();
  return { page, close: () => context.close() };
}

test('rich text → sandboxed preview → review → the operator approves; a rejection shows its reason', (t) =>
  withPage(browser, t, async (page) => {
    const invokeName = `welcome_${process.pid}`;
    await logIn(page.context(), herald, customer);
    await page.goto(`${herald.url}/sendRelative/template`);
    await waitForShell(page);
    await page.getByText('还没有模板').waitFor();

    await page.getByTestId('template-add-rich').click();
    await page.getByTestId('template-name').fill('welcome_mail');
    await page.getByTestId('template-invoke-name').fill(invokeName);
    await page.getByTestId('template-subject').fill('欢迎 %name%');
    const editable = page.getByTestId('template-rich-editor').locator('[contenteditable="true"]');
    // The rich-text editor's toolbar speaks the console's language.
    await page.getByTestId('template-rich-editor').locator('button[title="加粗"]').waitFor();
    assert.equal(await page.getByTestId('template-rich-editor').locator('button[title="Bold"]').count(), 0);
    await editable.click();
    await page.keyboard.type('Hello %name%, your code is %code%.');
    await page.getByTestId('template-variables').getByText('%code%').waitFor();
    // A script in the HTML source: kept as written, never run by the preview.
    await page.getByRole('tab', { name: 'HTML源码' }).click();
    const source = page.getByTestId('template-html-source');
    const written = await source.inputValue();
    assert.match(written, /Hello %name%, your code is %code%\./);
    await source.fill(`${written}<script>document.body.setAttribute('data-ran', 'yes')</script>`);
    await page.getByTestId('template-save').click();

    const row = page.locator(`tr[data-invoke-name="${invokeName}"]`);
    await row.locator('.template-status[data-status="unsubmitted"]').waitFor();

    await row.getByRole('button', { name: '预览' }).click();
    await page.waitForURL((url) => url.pathname === '/sendRelative/template/preview');
    const frame = page.getByTestId('template-frame');
    assert.equal(await frame.getAttribute('sandbox'), '');
    await page
      .frameLocator('[data-testid="template-frame"]')
      .getByText('Hello %name%, your code is %code%.')
      .waitFor();
    assert.equal(
      await page.frameLocator('[data-testid="template-frame"]').locator('body').getAttribute('data-ran'),
      null,
      'the template script did not run',
    );
    assert.equal(await page.getByTestId('template-preview-subject').textContent(), '欢迎 %name%');

    await page.goto(`${herald.url}/sendRelative/template`);
    await row.getByTestId('template-commit').click();
    await confirm(page);
    await row.locator('.template-status[data-status="reviewing"]').waitFor();

    // A second template, submitted through the API, for the rejection.
    const second = `promo_${process.pid}`;
    const created = await api('/mail/templates', {
      method: 'POST',
      body: JSON.stringify({
        name: 'promo',
        invokeName: second,
        templateType: 'batch',
        subject: 'Sale',
        html: '<p>Sale</p>',
      }),
    });
    assert.equal(created.status, 201);
    const secondId = ((await created.json()) as { data: { id: number } }).data.id;
    assert.equal((await api(`/mail/templates/commitVerify/${secondId}`, { method: 'POST' })).status, 200);

    const operator = await operatorPage();
    try {
      const pending = operator.page.locator(`tr[data-invoke-name="${invokeName}"]`);
      await pending.getByText(customer.userName).waitFor();
      await pending.getByTestId('admin-preview').click();
      const modalFrame = operator.page.locator('.ant-modal [data-testid="template-frame"]');
      assert.equal(await modalFrame.getAttribute('sandbox'), '');
      await operator.page
        .frameLocator('.ant-modal [data-testid="template-frame"]')
        .getByText('Hello %name%, your code is %code%.')
        .waitFor();
      await operator.page.locator('.ant-modal-close').click();
      await pending.getByTestId('admin-approve').click();
      await confirm(operator.page);
      await pending.waitFor({ state: 'detached' });

      const toReject = operator.page.locator(`tr[data-invoke-name="${second}"]`);
      await toReject.getByTestId('admin-reject').click();
      // The modal's zoom-in animation can swallow a click on a slow machine: wait until it is open.
      await operator.page.getByTestId('admin-reject-reason').waitFor();
      await operator.page
        .locator('.ant-modal')
        .last()
        .evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
      await operator.page.locator('.admin-reject-ok').click();
      await operator.page.getByText('请填写驳回原因（最多500个字符）').waitFor();
      await operator.page.getByTestId('admin-reject-reason').fill('链接指向未知域名');
      await operator.page.locator('.admin-reject-ok').click();
      await toReject.waitFor({ state: 'detached' });
    } finally {
      await operator.close();
    }

    await page.reload();
    await row.locator('.template-status[data-status="passed"]').waitFor();
    const rejected = page.locator(`tr[data-invoke-name="${second}"]`);
    await rejected.locator('.template-status[data-status="rejected"]').waitFor();
    await rejected.locator('.template-reject-reason').getByText('原因：链接指向未知域名').waitFor();
  }));

test('customers cannot open /admin: the guard sends them to the deny page', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, customer);
    await page.goto(`${herald.url}/admin/templates`);
    await page.waitForURL((url) => url.pathname === '/backend/deny');
  }));

test('the drag-and-drop editor loads grapesjs from Herald and saves a design that opens again', (t) =>
  withPage(browser, t, async (page) => {
    const outside: string[] = [];
    page.on('request', (request) => {
      const url = request.url();
      if (!/^(data:|blob:|about:)/.test(url) && !url.startsWith(herald.url)) outside.push(url);
    });
    const invokeName = `visual_${process.pid}`;
    await logIn(page.context(), herald, customer);
    await page.goto(`${herald.url}/sendRelative/template/shanTemplateOpt`);
    await waitForShell(page);
    const canvas = page.frameLocator('[data-testid="grapes-container"] iframe.gjs-frame');
    await canvas.getByText('您的标题').waitFor({ timeout: 30_000 });
    await page.locator('.gjs-blocks-c .gjs-block').first().waitFor();
    // The editor speaks the console's language: its buttons and the preset's blocks in Chinese.
    await page.locator('.gjs-blocks-c').getByText('按钮', { exact: true }).waitFor();
    await page.locator('.gjs-pn-btn[title="预览"]').waitFor();
    assert.equal(await page.locator('.gjs-blocks-c').getByText('Button', { exact: true }).count(), 0);

    await page.getByTestId('template-name').fill('visual_mail');
    await page.getByTestId('template-invoke-name').fill(invokeName);
    await page.getByTestId('template-subject').fill('Newsletter');
    await page.getByTestId('template-save').click();
    const row = page.locator(`tr[data-invoke-name="${invokeName}"]`);
    await row.getByText('拖拽').waitFor();

    const list = (await (await api('/mail/templates')).json()) as {
      data: { id: number; invokeName: string }[];
    };
    const id = list.data.find((x) => x.invokeName === invokeName)?.id;
    assert.ok(id);
    const saved = (
      (await (await api(`/mail/templates/${id}`)).json()) as {
        data: { design: string; html: string; editor: string };
      }
    ).data;
    assert.equal(saved.editor, 'dragdrop');
    assert.match(saved.html, /您的标题/);
    const design = JSON.parse(saved.design) as { pages?: unknown[] };
    assert.ok(Array.isArray(design.pages) && design.pages.length > 0, 'a grapesjs project was saved');

    await row.getByRole('button', { name: '编辑' }).click();
    await page.waitForURL((url) => url.pathname === '/sendRelative/template/shanTemplateOpt');
    await canvas.getByText('您的标题').waitFor({ timeout: 30_000 });
    assert.equal(await page.getByTestId('template-invoke-name').inputValue(), invokeName);
    assert.deepEqual(outside, [], 'nothing was fetched from outside Herald');
  }));
