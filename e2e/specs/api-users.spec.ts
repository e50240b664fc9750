import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Herald } from '@herald/test-peers';
import type { Browser, Page } from 'playwright-core';
import type { TestUser } from '../harness/accounts.ts';
import { withPage } from '../harness/browser.ts';
import { logIn, startConsoleTestbed, stopConsoleTestbed, waitForShell } from '../harness/console.ts';
import { codeIn, type MailPeers, startMailPeers } from '../harness/mail-peers.ts';
import { apiv2, writeVerifiedDomain } from '../harness/sending.ts';

/**
 * An API_USER's life in the console against a real Herald: created on a verified sending domain,
 * its key shown once (and usable at once by a SendCloud-style form post), never shown again
 * after the dialog closes, and a reset behind the verification dialog showing a new key while
 * the old one keeps working through the chosen grace period. The verified domain is a row
 * written into the Herald's database, as the domains area would leave it after its DNS checks.
 */
let peers: MailPeers;
let herald: Herald;
let browser: Browser;
let owner: TestUser;

before(async () => {
  peers = await startMailPeers();
  ({ herald, browser, owner } = await startConsoleTestbed(peers.env));
  await writeVerifiedDomain(herald, owner, 'mail.e2e-apiuser.example');
});

after(() => stopConsoleTestbed({ browser, herald }, peers));

/** userinfo/get as SendCloud's documentation calls it: a plain form post. */
async function authenticates(apiUser: string, apiKey: string): Promise<boolean> {
  return (await apiv2(herald, { apiUser, apiKey }, 'userinfo/get', {})).result;
}

async function shownKey(page: Page): Promise<string> {
  const dialog = page.locator('.api-key-modal');
  await dialog.waitFor();
  const key = ((await dialog.locator('.api-key-value').textContent()) ?? '').trim();
  assert.match(key, /^[A-Za-z0-9_-]{43}$/);
  assert.match((await dialog.textContent()) ?? '', /仅显示一次/);
  return key;
}

test('an API_USER is created on a verified domain, its key shown once, and a reset shows a new one', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/sendSetting/apiuser`);
    await waitForShell(page);
    await page.locator('.api-users-table .ant-empty').waitFor();

    await page.locator('.api-user-add').first().click();
    await page.locator('.api-user-option-page').waitFor();
    await page.locator('input[name="name"]').fill('e2e_sender');
    await page.locator('.api-user-domain').click();
    await page.locator('.ant-select-item-option', { hasText: 'mail.e2e-apiuser.example' }).click();
    await page.locator('.api-user-submit').click();

    const key = await shownKey(page);
    assert.equal(await authenticates('e2e_sender', key), true, 'the shown key works at once');
    await page.locator('.api-key-close').click();
    await page.locator('.api-users-table').getByText('e2e_sender').waitFor();
    assert.equal(await page.locator('.api-key-modal').isVisible(), false);
    assert.ok(!(await page.content()).includes(key), 'the key is not on the list');
    await page.reload();
    await page.locator('.api-users-table').getByText('e2e_sender').waitFor();
    assert.ok(!(await page.content()).includes(key), 'nor after a reload');
    await page.locator('.api-user-keys', { hasText: key.slice(-4) }).waitFor();

    await page.locator('.api-user-reset').click();
    const reset = page.locator('.reset-key-modal');
    await reset.waitFor();
    await reset.locator('.reset-minutes-30').click();
    await reset.locator('.reset-key-ok').click();

    const verify = page.locator('.verify-identity-modal');
    await verify.waitFor();
    await verify.locator('.verify-send-code').click();
    const { text } = await peers.nextMail(`${owner.userName}@example.com`);
    await verify.locator('input[name="verifyCode"]').fill(codeIn(text));
    await verify.getByRole('button', { name: '验证' }).click();

    const newKey = await shownKey(page);
    assert.notEqual(newKey, key);
    assert.match((await page.locator('.api-key-modal').textContent()) ?? '', /原密钥在 .* 之前仍然有效/);
    assert.equal(await authenticates('e2e_sender', newKey), true, 'the new key works');
    assert.equal(await authenticates('e2e_sender', key), true, 'the old key works through the grace period');
    await page.locator('.api-key-close').click();
    await page.locator('.api-key-value').waitFor({ state: 'detached' });
    await page.locator('.api-user-keys', { hasText: '旧密钥尾号' }).waitFor();
    assert.ok(!(await page.content()).includes(newKey));
  }));

test('labels are added, renamed and deleted on the tags screen, with the name rule in the form', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/sendSetting/tags`);
    await waitForShell(page);
    await page.locator('.labels-table .ant-empty').waitFor();

    await page.locator('.label-add').click();
    const dialog = page.locator('.label-form-modal');
    await dialog.waitFor();
    await dialog.locator('.label-save').click();
    await dialog.getByText('请输入标签名称').waitFor();
    await dialog.locator('input[name="labelName"]').fill('周报');
    await dialog.locator('.label-save').click();
    await page.locator('.labels-table').getByText('周报').waitFor();

    await page.locator('.label-edit').click();
    await dialog.locator('input[name="labelName"]').fill('月报');
    await dialog.locator('.label-save').click();
    await page.locator('.labels-table').getByText('月报').waitFor();

    await page.locator('.label-delete').click();
    await page.locator('.ant-popconfirm .ant-btn-dangerous').click();
    await page.locator('.labels-table .ant-empty').waitFor();
  }));

test("dates follow the console's language, not the browser's locale", async (t) => {
  const stamp = (text: string, pattern: RegExp) => assert.match(text, pattern);
  await withPage(
    browser,
    t,
    async (page) => {
      await logIn(page.context(), herald, owner);
      await page.goto(`${herald.url}/sendSetting/apiuser`);
      await waitForShell(page);
      const table = page.locator('.api-users-table');
      await table.getByText('e2e_sender').waitFor();
      stamp((await table.textContent()) ?? '', /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
      // Headers, names and times keep to one line (no column squeezed to a character per line).
      const lines = await table.locator('thead th, tbody td').evaluateAll((cells) =>
        cells.map((cell) => {
          // The most lines any one piece of text in the cell wraps onto.
          let most = 0;
          const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            if (!node.textContent?.trim()) continue;
            const range = document.createRange();
            range.selectNodeContents(node);
            most = Math.max(most, new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size);
          }
          return [cell.textContent, most] as const;
        }),
      );
      for (const [text, count] of lines) {
        assert.equal(count, 1, `"${text}" takes ${count} lines`);
      }
    },
    { locale: 'en-US' },
  );
  await withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/sendSetting/apiuser?lang=en`);
    await waitForShell(page);
    const table = page.locator('.api-users-table');
    await table.getByText('e2e_sender').waitFor();
    const text = (await table.textContent()) ?? '';
    stamp(text, /[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{2}:\d{2}:\d{2}/);
    assert.doesNotMatch(text, /\d{4}\/\d{1,2}\/\d{1,2}/, 'no browser-locale date');
  });
});

test('a tracking switch saves at once, says so, and its toast undoes it', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/sendSetting/apiuser`);
    await waitForShell(page);
    const row = page.locator('.api-users-table tr', { hasText: 'e2e_sender' });
    const open = row.locator('.tracking-openTracking');
    await open.waitFor();
    assert.equal(await open.getAttribute('aria-checked'), 'true');

    await open.click();
    const toast = page.locator('.http-toast-success', { hasText: '已保存' });
    await toast.waitFor();
    await row.locator('.tracking-openTracking[aria-checked="false"]').waitFor();
    await page.reload();
    await row.locator('.tracking-openTracking[aria-checked="false"]').waitFor();

    await open.click();
    await page.locator('.http-toast-success', { hasText: '已保存' }).locator('.toast-action').click();
    await row.locator('.tracking-openTracking[aria-checked="false"]').waitFor();
    await page.reload();
    await row.locator('.tracking-openTracking[aria-checked="false"]').waitFor();
  }));
