import assert from 'node:assert/strict';
import { type Herald, startHerald } from '@herald/test-peers';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { createTestUser, sessionCookies, type TestUser } from './accounts.ts';
import { launchBrowser } from './browser.ts';

/**
 * Helpers for the console's browser tests: starting Herald and a browser, logging a context in,
 * reading its cookies, and finding the console's toasts (antd messages the HTTP client raises,
 * classed by level).
 */
export interface ConsoleTestbed {
  herald: Herald;
  browser: Browser;
  /** An account owner with every permission, ready to log a context in. */
  owner: TestUser;
}

/**
 * Starts a Herald (with `env` on top of its test defaults) and the browser side by side, then
 * creates an account owner (stopping both again if that fails). A console built elsewhere
 * (HERALD_CONSOLE_DIR) is served instead of console/dist.
 */
export async function startConsoleTestbed(env: Record<string, string> = {}): Promise<ConsoleTestbed> {
  const consoleDir = process.env.HERALD_CONSOLE_DIR;
  const [herald, browser] = await Promise.all([
    startHerald({ env: { ...env, ...(consoleDir ? { HERALD_CONSOLE_DIR: consoleDir } : {}) } }),
    launchBrowser(),
  ]);
  try {
    return { herald, browser, owner: await createTestUser(herald) };
  } catch (error) {
    await browser.close();
    await herald.stop();
    throw error;
  }
}

/** Stops what startConsoleTestbed started (as far as it got), then the given peers, in that order. */
export async function stopConsoleTestbed(
  testbed: Partial<Pick<ConsoleTestbed, 'herald' | 'browser'>>,
  ...peers: ({ close(): Promise<void> } | undefined)[]
): Promise<void> {
  await testbed.browser?.close();
  await testbed.herald?.stop();
  for (const peer of peers) await peer?.close();
}

export async function logIn(context: BrowserContext, herald: Herald, user: TestUser): Promise<void> {
  await context.addCookies(sessionCookies(herald, user));
}

/** The context's cookies by name, values URI-decoded (the console encodes what it writes). */
export async function cookieMap(
  context: BrowserContext,
): Promise<Map<string, { value: string; expires: number }>> {
  const cookies = await context.cookies();
  return new Map(
    cookies.map((cookie) => [
      cookie.name,
      { value: decodeURIComponent(cookie.value), expires: cookie.expires },
    ]),
  );
}

export function toasts(page: Page, level: 'success' | 'error') {
  return page.locator(`.http-toast-${level}`);
}

/** Opens a Popconfirm's trigger and clicks its OK button (classed `okClass`). */
export async function confirmPopconfirm(page: Page, trigger: Locator, okClass: string): Promise<void> {
  await trigger.click();
  await page.locator(`.ant-popconfirm:visible .${okClass}`).click();
}

/** Waits for the console shell to show a backend screen. */
export async function waitForShell(page: Page): Promise<void> {
  await page.getByTestId('backend-shell').waitFor();
  await page.getByTestId('sidebar-menu').waitFor();
}

/** Sidebar entries' visible texts, submenus opened or not. */
export async function menuTexts(page: Page): Promise<string[]> {
  const texts = await page.getByTestId('sidebar-menu').locator('.ant-menu-title-content').allInnerTexts();
  return texts.map((text) => text.trim()).filter(Boolean);
}

export interface ToastRecord {
  level: string;
  text: string;
  /** ms (page clock) the toast appeared and left; `removed` is null while it shows. */
  added: number;
  removed: number | null;
}

/**
 * Records every toast a page of this context shows, with when it appeared and left, so tests can
 * assert on toasts that came and went (and on their duration) however slowly the machine runs.
 */
export async function recordToasts(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const entries: { level: string; text: string; added: number; removed: number | null; el: Element }[] = [];
    (window as unknown as { __toasts: typeof entries }).__toasts = entries;
    new MutationObserver(() => {
      const now = performance.now();
      for (const el of Array.from(document.querySelectorAll('[class*="http-toast-"]'))) {
        if (entries.some((entry) => entry.el === el)) continue;
        const level = /http-toast-(\w+)/.exec(el.className)?.[1] ?? '';
        entries.push({ level, text: el.textContent?.trim() ?? '', added: now, removed: null, el });
      }
      for (const entry of entries) if (entry.removed === null && !entry.el.isConnected) entry.removed = now;
    }).observe(document, { childList: true, subtree: true });
  });
}

export async function readToasts(page: Page): Promise<ToastRecord[]> {
  return page.evaluate(() =>
    (window as unknown as { __toasts: ToastRecord[] }).__toasts.map(({ level, text, added, removed }) => ({
      level,
      text,
      added,
      removed,
    })),
  );
}

/**
 * Waits until the locator's trimmed text is `expected` (a preview re-rendering after a fill
 * shows the earlier text for a moment), then asserts it, so a timeout reports the text it saw.
 */
export async function expectText(locator: Locator, expected: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let seen = ((await locator.textContent()) ?? '').trim();
  while (seen !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    seen = ((await locator.textContent()) ?? '').trim();
  }
  assert.equal(seen, expected);
}
