import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Herald, startHerald } from '@herald/test-peers';
import type { Browser, Page, Request } from 'playwright-core';
import { createTestUser } from '../harness/accounts.ts';
import { launchBrowser, withPage } from '../harness/browser.ts';
import { cookieMap, logIn, readToasts, recordToasts, toasts } from '../harness/console.ts';

/**
 * The console's HTTP client (console-spec §7 General, §8), driven through its real code on the
 * /diagnostics/http screen. The server has no endpoint answering every status yet, so
 * `page.route()` answers `…/e2e-probe/…` paths: `answer/<status>[/<suffix>]` with that status
 * (the suffix picks a silent-path exception), `slow` after a delay, `echo` with what was sent.
 */
let herald: Herald;
let browser: Browser;

before(async () => {
  [herald, browser] = await Promise.all([startHerald(), launchBrowser()]);
});

after(async () => {
  await browser?.close();
  await herald?.stop();
});

interface Sent {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body: string | null;
}

/** Answers the probe paths; returns what the echo endpoint received. */
async function probe(page: Page): Promise<Sent[]> {
  const echoed: Sent[] = [];
  await page.route('**/e2e-probe/**', async (route) => {
    const request: Request = route.request();
    const url = new URL(request.url());
    const answer = /\/e2e-probe\/answer\/(\d{3})(\/bare)?/.exec(url.pathname);
    if (answer) {
      const status = Number(answer[1]);
      if (status === 204) return route.fulfill({ status });
      if (answer[2] || status < 300)
        return route.fulfill({ status, json: status < 300 ? { success: true } : {} });
      return route.fulfill({
        status,
        json: { code: 'E2E', message: `m${status}`, error: `服务端说 ${status}`, requestId: 'e2e' },
      });
    }
    if (url.pathname.includes('/e2e-probe/data/slow')) {
      await new Promise((resolve) => setTimeout(resolve, 1200));
      return route.fulfill({ status: 200, json: { data: url.searchParams.get('n') } }).catch(() => {});
    }
    echoed.push({
      method: request.method(),
      path: url.pathname,
      query: url.search,
      headers: await request.allHeaders(),
      body: request.postData(),
    });
    return route.fulfill({ status: 200, json: { data: 'echo' } });
  });
  return echoed;
}

interface SendOptions {
  params?: string;
  format?: 'form' | 'json' | 'multipart';
  count?: number;
}

/** Sends through the diagnostics screen and waits for every call to settle; returns the outcomes. */
async function send(page: Page, method: string, path: string, options: SendOptions = {}): Promise<string[]> {
  const results = page.getByTestId('diag-result');
  const before = await results.count();
  await page.getByTestId('diag-method').getByText(method, { exact: true }).click();
  await page.getByTestId('diag-path').fill(path);
  await page.getByTestId('diag-params').fill(options.params ?? '');
  await page
    .getByTestId('diag-format')
    .getByText(options.format ?? 'form', { exact: true })
    .click();
  await page.getByTestId('diag-count').fill(String(options.count ?? 1));
  await page.getByTestId('diag-send').click();
  const count = options.count ?? 1;
  await page.waitForFunction(
    (expected) => document.querySelectorAll('[data-testid="diag-result"]').length >= expected,
    before + count,
  );
  const outcomes = await results.evaluateAll((nodes) =>
    nodes.map((node) => node.getAttribute('data-outcome') ?? ''),
  );
  return outcomes.slice(0, count);
}

async function openDiagnostics(page: Page, lang = 'zh-cn'): Promise<Sent[]> {
  await recordToasts(page.context());
  const echoed = await probe(page);
  await page.goto(`${herald.url}/diagnostics/http?lang=${lang}`);
  await page.getByTestId('diag-send').waitFor();
  return echoed;
}

test('201 toasts "Successful operation" for 2 s; 204 "Successful deletion"; the listed paths stay silent', (t) =>
  withPage(browser, t, async (page) => {
    await openDiagnostics(page);
    assert.deepEqual(await send(page, 'POST', '/e2e-probe/answer/201'), ['resolved']);
    assert.deepEqual(await send(page, 'DELETE', '/e2e-probe/answer/204'), ['resolved']);
    // Silent paths: the queue detail list (201) and SMS activation (204).
    assert.deepEqual(await send(page, 'POST', '/e2e-probe/answer/201/mail/queues/getQueueDetailList'), [
      'resolved',
    ]);
    assert.deepEqual(await send(page, 'POST', '/e2e-probe/answer/204/access/active/sms'), ['resolved']);

    await toasts(page, 'success').first().waitFor({ state: 'detached', timeout: 10_000 });
    await page.waitForFunction(() => document.querySelectorAll('.http-toast-success').length === 0);
    const shown = await readToasts(page);
    assert.deepEqual(
      shown.map((toast) => `${toast.level}:${toast.text}`),
      ['success:操作成功', 'success:删除成功'],
    );
    const lasted = (shown[0]!.removed ?? 0) - shown[0]!.added;
    assert.ok(lasted >= 1800 && lasted < 3500, `the success toast lasted ${Math.round(lasted)} ms`);
  }));

test('error statuses show the server text for 5 s, with the §8 exceptions', (t) =>
  withPage(browser, t, async (page) => {
    await openDiagnostics(page);
    for (const status of [400, 410, 422, 500, 403]) {
      assert.deepEqual(await send(page, 'POST', `/e2e-probe/answer/${status}`), ['failed']);
    }
    // Silent: 400 on the token call, 403 on any GET, 422 on an availability check, userTrack.
    await send(page, 'POST', '/e2e-probe/answer/400/oauth/token');
    await send(page, 'GET', '/e2e-probe/answer/403');
    await send(page, 'POST', '/e2e-probe/answer/422/access/register/checkUserName');
    await send(page, 'POST', '/e2e-probe/answer/500/userTrack');

    const first = toasts(page, 'error').filter({ hasText: '服务端说 400' });
    await first.waitFor({ state: 'detached', timeout: 15_000 });
    const shown = await readToasts(page);
    assert.deepEqual(
      shown.map((toast) => toast.text),
      ['服务端说 400', '服务端说 410', '服务端说 422', '服务端说 500', '服务端说 403'],
    );
    const lasted = (shown[0]!.removed ?? 0) - shown[0]!.added;
    assert.ok(lasted >= 4800 && lasted < 6500, `the error toast lasted ${Math.round(lasted)} ms`);
  }));

test('an error without a message says "error" (English)', (t) =>
  withPage(browser, t, async (page) => {
    await openDiagnostics(page, 'en');
    await send(page, 'PUT', '/e2e-probe/answer/403/bare');
    await toasts(page, 'error')
      .filter({ hasText: /^error$/ })
      .waitFor();
  }));

test('401 goes to /login and logs out; the session is revoked on the server', (t) =>
  withPage(browser, t, async (page) => {
    const user = await createTestUser(herald);
    await logIn(page.context(), herald, user);
    await openDiagnostics(page);
    const loggedOut = page.waitForRequest((request) => request.url().endsWith('/v3/api/loginOut'));
    await page.getByTestId('diag-path').fill('/e2e-probe/answer/401');
    await page.getByTestId('diag-send').click();
    await page.waitForURL((url) => url.pathname === '/login');
    await (await loggedOut).response();
    assert.equal((await cookieMap(page.context())).has('token'), false);
    const check = await fetch(`${herald.url}/v3/api/userInfo`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    assert.equal(check.status, 401);
  }));

test('428 goes to /activate', (t) =>
  withPage(browser, t, async (page) => {
    await openDiagnostics(page);
    await page.getByTestId('diag-method').getByText('POST', { exact: true }).click();
    await page.getByTestId('diag-path').fill('/e2e-probe/answer/428');
    await page.getByTestId('diag-send').click();
    await page.waitForURL((url) => url.pathname === '/activate');
  }));

test('a repeated pending data GET cancels the earlier one, which rejects silently', (t) =>
  withPage(browser, t, async (page) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && message.text().includes('Cancelled')) errors.push(message.text());
    });
    await openDiagnostics(page);
    const outcomes = await send(page, 'GET', '/e2e-probe/data/slow', { params: '{"n":"1"}', count: 2 });
    assert.deepEqual(outcomes.sort(), ['cancelled', 'resolved']);
    assert.equal(await toasts(page, 'error').count(), 0);

    // A GET that is not a data, stat or trackData call is never cancelled.
    assert.deepEqual(await send(page, 'GET', '/e2e-probe/answer/200', { count: 2 }), [
      'resolved',
      'resolved',
    ]);
    assert.deepEqual(errors, []);
  }));

test('calls carry the lang header and the httpOnly session cookie, never the token in script; bodies are form-encoded without empty params', (t) =>
  withPage(browser, t, async (page) => {
    await page.context().addCookies([
      { name: 'token', value: 'tok123', url: herald.url, httpOnly: true },
      { name: 'tokenType', value: 'Bearer', url: herald.url },
      { name: 'loginId', value: 'login1', url: herald.url },
    ]);
    const echoed = await openDiagnostics(page, 'en');
    const params = '{"name":"a b","empty":"","none":null,"zero":0,"off":false}';

    await send(page, 'POST', '/e2e-probe/echo', { params });
    await send(page, 'PATCH', '/e2e-probe/echo', { params, format: 'json' });
    await send(page, 'GET', '/e2e-probe/echo', { params });
    await send(page, 'POST', '/e2e-probe/access/echo', { params: '{"x":"1"}' });

    const [form, json, get, access] = echoed;
    assert.equal(form?.path, '/v3/api/e2e-probe/echo');
    assert.equal(form?.headers['content-type'], 'application/x-www-form-urlencoded;charset=UTF-8');
    assert.equal(form?.body, 'name=a+b&zero=0&off=false');
    assert.equal(form?.headers.lang, 'en');
    assert.match(
      form?.headers.cookie ?? '',
      /(^|; )token=tok123(;|$)/,
      'the browser sends the session cookie',
    );
    assert.equal(form?.headers.authorization, undefined, 'the script never had the token to put in a header');
    assert.doesNotMatch(await page.evaluate(() => document.cookie), /tok123/);

    assert.equal(json?.method, 'PATCH');
    assert.equal(json?.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(json?.body ?? ''), { name: 'a b', zero: 0, off: false });

    assert.equal(get?.query, '?name=a+b&zero=0&off=false');
    assert.equal(get?.body, null);
    assert.equal(access?.path, '/v3/e2e-probe/access/echo', 'URLs containing /access use the /v3 base');
  }));
