import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  ALL_PERMISSION_CODES,
  AUTHENTICATED,
  PERMISSIONS as P,
  PLATFORM_OPERATOR,
  PUBLIC,
  type RouteAccess,
} from '@herald/shared';
import { redirectRoutes, screenRoutes } from '../../console/src/routes/routes.ts';
import { CONSOLE_LOCALES_DIR, CONSOLE_PAGES_DIR } from '../harness/paths.ts';

/**
 * Drift test of the console's route table (console/src/routes), read as data by Node: every
 * route of console-spec §2 is there with the access of §6, no backend route lacks a permission
 * code, themes follow the product, titles exist in both languages, every page module exists,
 * and the placeholder flag tells the truth about the page.
 */
const A = AUTHENTICATED;

/** console-spec §2, transcribed: path → access. Spellings as in the spec. */
const BACKEND: Record<string, RouteAccess> = {
  '/backend/dashborad': P.DASHBOARD,
  '/backend/s_dashborad': P.DASHBOARD,
  '/backend/deny': A,
  ...area(
    '/data',
    P.EMAIL_DATA,
    'send deliveryTime dataView monitor monitor/monitorConfig receive reputationHistory receiveDomain inboxInsight sina netease oversea',
  ),
  ...area(
    '/sendResponse',
    P.EMAIL_RESPONSE,
    'emailStatus openClick trashList subscribe customeInterceptor unsubscribe offline',
  ),
  '/sendResponse/queueStatus': P.EMAIL_SEND,
  ...area(
    '/sendRelative',
    P.EMAIL_SEND,
    'test template template/templateOpt template/shanTemplateOpt template/preview address address/addressEdit subscription subscription/add subscription/edit subscription/config timedTask timedTask/add timedTask/edit timedTask/detail queue',
  ),
  ...area(
    '/sendSetting',
    P.EMAIL_SETTINGS,
    // integration and route: not in §2, what a developer needs to connect their code, and the
    // receive routes of product-spec §3.
    'domain domain/domainConfig apiuser apiuser/option integration route tags track unsubsribeSetting webhook sender ipManager unsubsribeSetting/stylePage unsubsribeSetting/preview/:id',
  ),
  ...area('/accountSetting', A, 'info security security/contact'),
  ...area('/accountSetting', P.TEAMMATES, 'teammates teammates/option'),
  '/accountSetting/authenticate': P.AUTHENTICATE,
  ...area(
    '/accountSetting',
    P.FINANCE,
    // charge/result: not in §2, where Alipay and PayPal send the buyer back after paying.
    'financialMangement financialMangement/createTicketInfo financialMangement/ticket financialMangement/applyTicket financialMangement/charge financialMangement/charge/result financialMangement/charge/coupon',
  ),
  ...area('/accountSetting', P.TRADE, 'trade trade/receipt trade/tradeDetails'),
  '/accountSetting/bill': P.BILL,
  ...area('/accountSetting', P.MESSAGE_CENTRE, 'messageCenter messageCenter/setMessage'),
  ...area('/s_plus', P.S_PLUS, 'servicePlus servicePlus/annualReview'),
  ...area('/s_data', P.SMS_DATA, 's_send clickData replay'),
  ...area(
    '/s_sendResponse',
    P.SMS_RESPONSE,
    'smsStatus interceptor smsResponse linkClick unsubscribe offline',
  ),
  ...area(
    '/s_sendRelative',
    P.SMS_SEND,
    'test template template/s_templateOpt template/voice_templateOpt template/mms_templateOpt template/countTest template/s_preview sign sign/add guarantee contact contact/contactEdit task task/taskOpt task/taskPreivew',
  ),
  ...area('/s_sendSetting', P.SMS_SETTINGS, 'empower smsHook track label attack smsContent'),
};

const PUBLIC_PATHS = [
  ...words(
    '/ /home /404 /preview /subscriptionInvite /transfer /login /accountAuth /accountAuthTip /wxLoginCheck /wxbind /register /activate /resetEmail /activateSuccess /productSelect /activateFailed /reset /resetPassword /resetSuccess /resetFailed /loginProtect /prices /aboutUs /friendlyLink /sendService /feedbackTrack /dedicatedIp /home-oversea /chineseSms /InternationalSms /voiceSms /mediaSms /support /hospital /home-sign /activity/prize /activity/11 /activity/getPrize /activity/12',
  ),
  // The teammate invitation link of Herald's invite mail (§7 "Members"); the invitee has no login yet.
  '/access/member/invite',
  // Not in §2: the troubleshooting screen that drives the HTTP client (outside every menu).
  '/diagnostics/http',
  // Not in §2: the service agreement and privacy policy the sign-up form links to.
  '/terms',
  '/privacy',
];

/** The operators' /admin screens: not in §2, which describes the customer console. */
const ADMIN_PATHS = [
  // Template review (issue 5).
  '/admin/templates',
  // Plans, quotas and the certification mark (issues 16, 20).
  '/admin/accounts',
  // Review of SMS signatures and filings (issue 20).
  '/admin/smsReview',
  // SMS carriers and routes (issue 20).
  '/admin/smsCarriers',
  // Invoices (issue 18).
  '/admin/invoices',
  // The global SMS interception list (issue 20).
  '/admin/smsBlocklist',
];

function words(list: string): string[] {
  return list.split(/\s+/).filter(Boolean);
}

function area(base: string, access: RouteAccess, paths: string): Record<string, RouteAccess> {
  return Object.fromEntries(words(paths).map((path) => [`${base}/${path}`, access]));
}

test('every backend route names a permission code of §6, or AUTHENTICATED where §2 says no code', () => {
  const problems: string[] = [];
  for (const route of screenRoutes.filter((r) => r.frame === 'backend')) {
    const ok =
      route.access === AUTHENTICATED ||
      (typeof route.access === 'number' &&
        (ALL_PERMISSION_CODES as readonly number[]).includes(route.access));
    if (!ok) problems.push(`${route.path} has access ${String(route.access)}`);
  }
  assert.deepEqual(problems, []);
});

test('the backend routes are exactly those of §2, each with its code', () => {
  const actual = Object.fromEntries(
    screenRoutes.filter((r) => r.frame === 'backend').map((route) => [route.path, route.access]),
  );
  assert.deepEqual(actual, BACKEND);
});

test('the public routes are those of §2 and need no login', () => {
  const publicRoutes = screenRoutes.filter((r) => r.frame === 'public');
  assert.deepEqual(publicRoutes.map((r) => r.path).sort(), [...PUBLIC_PATHS].sort());
  for (const route of publicRoutes) assert.equal(route.access, PUBLIC, route.path);
  assert.equal(new Set(screenRoutes.map((r) => r.path)).size, screenRoutes.length, 'a path is listed twice');
});

test('the /admin screens are the operators’ alone', () => {
  const admin = screenRoutes.filter((r) => r.frame === 'admin');
  assert.deepEqual(admin.map((r) => r.path).sort(), [...ADMIN_PATHS].sort());
  for (const route of admin) assert.equal(route.access, PLATFORM_OPERATOR, route.path);
});

test('redirects: /v3 → /home, /user → /login, /frontWeb → /home, unknown → /404', () => {
  const to = Object.fromEntries(redirectRoutes.map((r) => [r.path, r.redirectTo]));
  assert.equal(to['/v3'], '/home');
  assert.equal(to['/user'], '/login');
  assert.equal(to['/frontWeb'], '/home');
  assert.equal(to['*'], '/404');
  assert.equal(redirectRoutes.at(-1)?.path, '*');
});

test('themes: SMS areas and the SMS dashboard are sms, the email areas email, shared pages keep the stored theme', () => {
  const sms = /^\/(s_data|s_sendResponse|s_sendRelative|s_sendSetting)\//;
  const email = /^\/(data|sendResponse|sendRelative|sendSetting|s_plus)\//;
  for (const route of screenRoutes) {
    const expected =
      route.path === '/backend/s_dashborad' || sms.test(route.path)
        ? 'sms'
        : route.path === '/backend/dashborad' || email.test(route.path)
          ? 'email'
          : undefined;
    assert.equal(route.theme, expected, route.path);
  }
});

function localeKeys(lang: string): Set<string> {
  const keys = new Set<string>();
  const walk = (prefix: string, value: unknown) => {
    if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value)) walk(`${prefix}.${key}`, child);
    } else keys.add(prefix);
  };
  for (const areaName of ['routes', 'home', 'notFound']) {
    walk(areaName, JSON.parse(readFileSync(join(CONSOLE_LOCALES_DIR, lang, `${areaName}.json`), 'utf8')));
  }
  return keys;
}

test('every route title is translated in zh-cn and en', () => {
  for (const lang of ['zh-cn', 'en']) {
    const keys = localeKeys(lang);
    const missing = screenRoutes.filter((route) => !keys.has(route.titleKey)).map((route) => route.titleKey);
    assert.deepEqual(missing, [], `${lang} lacks route titles`);
  }
});

test('every page module exists and the placeholder flag tells the truth', () => {
  const problems: string[] = [];
  for (const route of screenRoutes) {
    const file = join(CONSOLE_PAGES_DIR, `${route.page}.tsx`);
    if (!existsSync(file)) {
      problems.push(`${route.path}: no ${route.page}.tsx`);
      continue;
    }
    const rendersPlaceholder = readFileSync(file, 'utf8').includes('<PlaceholderPage');
    if (rendersPlaceholder !== route.placeholder) {
      problems.push(
        `${route.path}: placeholder ${route.placeholder} but the page ${rendersPlaceholder ? 'is' : 'is not'} one`,
      );
    }
  }
  assert.deepEqual(problems, []);
});

test('backend screens of different routes never share a page module, except the two dashboards', () => {
  const byPage = new Map<string, string[]>();
  for (const route of screenRoutes.filter((r) => r.frame === 'backend')) {
    byPage.set(route.page, [...(byPage.get(route.page) ?? []), route.path]);
  }
  const shared = [...byPage.values()].filter((paths) => paths.length > 1);
  assert.deepEqual(shared, [['/backend/dashborad', '/backend/s_dashborad']]);
});
