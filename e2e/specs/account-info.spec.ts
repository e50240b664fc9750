import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Herald, startHerald } from '@herald/test-peers';
import type { Browser } from 'playwright-core';
import { createTestUser, type TestUser } from '../harness/accounts.ts';
import { launchBrowser, withPage } from '../harness/browser.ts';
import { logIn, waitForShell } from '../harness/console.ts';
import { codeIn, type MailPeers, startMailPeers } from '../harness/mail-peers.ts';

/**
 * The account details on /accountSetting/info: the holder type, the company's information and
 * the person's real name and ID number, each checked by the shared schema before it is sent;
 * the ID number is saved only after the verification dialog (a code mailed to a loopback MX)
 * and is shown back masked.
 */
let peers: MailPeers;
let herald: Herald;
let browser: Browser;
let owner: TestUser;

before(async () => {
  peers = await startMailPeers();
  [herald, browser] = await Promise.all([startHerald({ env: peers.env }), launchBrowser()]);
  owner = await createTestUser(herald);
});

after(async () => {
  await browser?.close();
  await herald?.stop();
  await peers?.close();
});

const details = async () =>
  (
    (await (
      await fetch(`${herald.url}/v3/api/userInfo/details`, {
        headers: { authorization: `Bearer ${owner.token}` },
      })
    ).json()) as { data: Record<string, unknown> }
  ).data;

test('the owner sets the company, then the real name and ID number after verifying', (t) =>
  withPage(browser, t, async (page) => {
    await logIn(page.context(), herald, owner);
    await page.goto(`${herald.url}/accountSetting/info`);
    await waitForShell(page);
    const card = page.locator('.account-details-card');

    await card.locator('.holder-type-enterprise').click();
    const company = card.locator('.enterprise-form');
    await company.waitFor();
    await company.locator('#website').fill('ftp://herald.example');
    await company.locator('.save-enterprise').click();
    await company.getByText('网址格式错误，须以 http:// 或 https:// 开头').waitFor();
    await company.getByText('此项为必填项').first().waitFor();

    await company.locator('#companyName').fill('赫拉德科技有限公司');
    await company.locator('#website').fill('https://herald.example');
    await company.locator('#industry').fill('软件');
    await company.locator('#contactName').fill('王伟');
    await company.locator('#contactPhone').fill('13912345678');
    await company.locator('.save-enterprise').click();
    await page.locator('.http-toast-success').first().waitFor();
    const saved = await details();
    assert.equal(saved.accountType, 'enterprise');
    assert.deepEqual(saved.enterprise, {
      companyName: '赫拉德科技有限公司',
      website: 'https://herald.example',
      industry: '软件',
      contactName: '王伟',
      contactPhone: '13912345678',
    });

    await card.locator('.holder-type-personal').click();
    const person = card.locator('.personal-form');
    await person.locator('#realName').fill('Li');
    await person.locator('#idNumber').fill('110105194912310021');
    await person.locator('.save-personal').click();
    await person.getByText('姓名须为两个或以上汉字').waitFor();
    await person.getByText('身份证号格式不正确').waitFor();

    await person.locator('#realName').fill('王小明');
    await person.locator('#idNumber').fill('11010519491231002X');
    await person.locator('.save-personal').click();
    const dialog = page.locator('.verify-identity-modal');
    await dialog.waitFor();
    await dialog.locator('.verify-send-code').click();
    const { text } = await peers.nextMail(`${owner.userName}@example.com`);
    await dialog.locator('input[name="verifyCode"]').fill(codeIn(text));
    await dialog.getByRole('button', { name: '验证' }).click();

    await card.locator('.personal-current').getByText('110***********002X').waitFor();
    assert.deepEqual((await details()).personal, { realName: '王小明', idNumber: '110***********002X' });
  }));
