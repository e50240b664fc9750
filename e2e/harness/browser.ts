import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { TEST_RESULTS_DIR } from './paths.ts';

/**
 * Debian's Chromium driven by playwright-core: no browser download, the same binary in CI and
 * on a developer machine. Each test gets its own context (fresh cookies and local storage) so
 * tests cannot leak a language or a session into one another.
 */
const CHROMIUM_PATH = process.env.HERALD_E2E_CHROMIUM ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface PageOptions {
  /** The browser's locale (navigator.language, Accept-Language); default zh-CN. */
  locale?: 'zh-CN' | 'en-US';
  viewport?: { width: number; height: number };
}

export async function openPage(
  browser: Browser,
  options: PageOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    locale: options.locale ?? 'zh-CN',
    viewport: options.viewport ?? { width: 1280, height: 800 },
  });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  return { context, page };
}

export function screenshotPath(name: string): string {
  const file = name.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') || 'page';
  return join(TEST_RESULTS_DIR, `${file}.png`);
}

export async function saveScreenshot(page: Page, name: string): Promise<string> {
  await mkdir(TEST_RESULTS_DIR, { recursive: true });
  const path = screenshotPath(name);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * Runs one test body on a fresh page; when the body throws, saves a full-page screenshot to
 * e2e/test-results/<test name>.png and reports its path, the page's errors and its last console-API
 * calls with their statuses, as diagnostics.
 */
export async function withPage<T>(
  browser: Browser,
  t: TestContext,
  run: (page: Page) => Promise<T>,
  options: PageOptions = {},
): Promise<T> {
  const { context, page } = await openPage(browser, options);
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(`console: ${message.text().slice(0, 500)}`);
  });
  const apiCalls: string[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (!url.pathname.startsWith('/v3/')) return;
    apiCalls.push(`api: ${response.status()} ${response.request().method()} ${url.pathname}`);
    if (apiCalls.length > 15) apiCalls.shift();
  });
  page.on('requestfailed', (request) => {
    apiCalls.push(`api: failed ${request.method()} ${request.url()}: ${request.failure()?.errorText}`);
  });
  try {
    return await run(page);
  } catch (error) {
    const shot = await saveScreenshot(page, t.fullName).catch(() => undefined);
    if (shot) t.diagnostic(`screenshot: ${shot} (page at ${page.url()})`);
    for (const line of [...pageErrors.slice(-10), ...apiCalls]) t.diagnostic(line);
    throw error;
  } finally {
    await context.close();
  }
}
