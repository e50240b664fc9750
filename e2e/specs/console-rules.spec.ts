import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ALL_PERMISSION_CODES, PERMISSIONS } from '@herald/shared';
import { fenToYuan } from '../../console/src/components/money.ts';
import { cleanParams, resolveUrl, toSearchParams } from '../../console/src/infra/http/request-params.ts';
import { statusEffects } from '../../console/src/infra/http/status-policy.ts';
import { marketingCookies } from '../../console/src/infra/storage/marketing-cookies.ts';
import { buildMenu, type MenuNode } from '../../console/src/routes/menu.ts';
import { applyMenuRules } from '../../console/src/stores/menu-rules.ts';
import {
  categoryDomains,
  mergeQueues,
  type QueueSample,
  replaceQueues,
  shouldPoll,
} from '../../console/src/stores/queue-status-merge.ts';

/**
 * The console's rules that are pure functions, run in Node: the status policy of console-spec §8,
 * parameter cleaning and bases of §7, the queue monitor merge of §4, the marketing cookies of §3,
 * the menu built from the route table and the Huawei Cloud rule.
 */
describe('status policy (§8)', () => {
  const toast = (status: number, method: string, url: string, error?: string) =>
    statusEffects(status, method, url, error).toast;

  test('201 toasts "Successful operation" for 2 s, except the silent paths', () => {
    assert.deepEqual(toast(201, 'POST', '/config/domains'), {
      level: 'success',
      message: { key: 'http.operationSucceeded' },
      seconds: 2,
    });
    for (const url of [
      '/trackDomains/cname/check',
      '/wechat/quickBind',
      '/wechat/quickLogin',
      '/access/register',
      '/sms/shortLink',
      '/mail/queues/getQueueDetailList',
      '/mail/queues/recoverPausedQueue',
      '/activity/eleventh/lotteryDraw',
      '/activity/doubleEleven/exchangePrize',
      '/userInfo/edited/passwd',
    ]) {
      assert.equal(toast(201, 'POST', url), undefined, url);
    }
  });

  test('204 toasts "Successful deletion" except activation', () => {
    assert.deepEqual(toast(204, 'DELETE', '/config/domains/3')?.message, { key: 'http.deletionSucceeded' });
    assert.equal(toast(204, 'POST', '/access/active/sms'), undefined);
    assert.equal(toast(204, 'POST', '/access/active/email'), undefined);
  });

  test('400 shows the error for 5 s except SMS code checks, the token call and the email routes config', () => {
    assert.deepEqual(toast(400, 'POST', '/config/domains', 'bad'), {
      level: 'error',
      message: { text: 'bad' },
      seconds: 5,
    });
    for (const url of [
      '/userInfo/smsCode/check',
      '/verify/smsCodeCheck',
      '/oauth/token',
      '/config/routes/email',
    ]) {
      assert.equal(toast(400, 'POST', url, 'bad'), undefined, url);
    }
  });

  test('401 goes to /login and logs out; 428 goes to /activate', () => {
    assert.deepEqual(statusEffects(401, 'GET', '/userInfo', 'x'), { navigate: '/login', logout: true });
    assert.deepEqual(statusEffects(428, 'POST', '/config/domains', 'x'), { navigate: '/activate' });
  });

  test('403 is silent for GET and userTrack, else the error or "error"', () => {
    assert.equal(toast(403, 'GET', '/config/domains', 'no'), undefined);
    assert.equal(toast(403, 'POST', '/userTrack/click', 'no'), undefined);
    assert.deepEqual(toast(403, 'POST', '/config/domains', 'no')?.message, { text: 'no' });
    assert.deepEqual(toast(403, 'POST', '/config/domains')?.message, { key: 'http.error' });
  });

  test('410 shows; 422 shows except progress, availability, resend, WeChat and SMS code checks', () => {
    assert.deepEqual(toast(410, 'GET', '/x', 'gone')?.message, { text: 'gone' });
    assert.deepEqual(toast(422, 'POST', '/config/domains', 'invalid')?.message, { text: 'invalid' });
    for (const url of [
      '/mail/mailingLists/upload/progress',
      '/access/register/checkUserName',
      '/access/register/checkPhone',
      '/access/register/checkEmail',
      '/access/register/resendRegMail',
      '/wechat/checkBind',
      '/wechat/checkStat',
      '/userInfo/smsCode/check',
    ]) {
      assert.equal(toast(422, 'POST', url, 'invalid'), undefined, url);
    }
  });

  test('other statuses show the error or "error", except userTrack; 200 is quiet', () => {
    assert.deepEqual(toast(500, 'GET', '/x', 'boom')?.message, { text: 'boom' });
    assert.deepEqual(toast(502, 'GET', '/x')?.message, { key: 'http.error' });
    assert.equal(toast(500, 'POST', '/userTrack/x', 'boom'), undefined);
    assert.deepEqual(statusEffects(200, 'GET', '/x', undefined), {});
  });
});

describe('request parameters (§5, §7)', () => {
  test('bases: /v3/api, or /v3 for oauth, access, static and loginVerify', () => {
    assert.equal(resolveUrl('/userInfo'), '/v3/api/userInfo');
    assert.equal(resolveUrl('userInfo'), '/v3/api/userInfo');
    assert.equal(resolveUrl('/oauth/token'), '/v3/oauth/token');
    assert.equal(resolveUrl('/access/register'), '/v3/access/register');
    assert.equal(resolveUrl('/static/logo.png'), '/v3/static/logo.png');
    assert.equal(resolveUrl('/user/loginVerify/sendSmsCode'), '/v3/user/loginVerify/sendSmsCode');
    assert.equal(resolveUrl('/user/member'), '/v3/api/user/member');
  });

  test('empty parameters are dropped; 0 and false are kept', () => {
    assert.deepEqual(
      cleanParams({
        a: 'x',
        b: '',
        c: '  ',
        d: null,
        e: undefined,
        f: Number.NaN,
        g: [],
        zero: 0,
        off: false,
      }),
      {
        a: 'x',
        zero: 0,
        off: false,
      },
    );
    assert.equal(
      toSearchParams({ q: 'a b', ids: [1, 2], skip: '', page: 0 }).toString(),
      'q=a+b&ids=1&ids=2&page=0',
    );
  });
});

describe('queue monitor (§4)', () => {
  const sample = (apiUserName: string, domain: string, n: number): QueueSample => ({
    apiUserName,
    domain,
    categoryId: 7,
    in: n,
    process: n + 1,
    out: n + 2,
  });

  test('the first load replaces; polls merge by apiUserName and domain with at most 10 points', () => {
    let rows = replaceQueues([sample('api1', 'a.com', 0), sample('api1', 'b.com', 0)], 't0');
    assert.equal(rows.length, 2);
    for (let i = 1; i <= 12; i++) rows = mergeQueues(rows, [sample('api1', 'a.com', i)], `t${i}`);
    assert.equal(rows.length, 1, 'a queue no longer reported leaves the list');
    const chart = rows[0]!.chart;
    assert.equal(chart.length, 10);
    assert.equal(chart[0]!.time, 't3');
    assert.deepEqual(chart.at(-1), { time: 't12', in: 12, process: 13, out: 14 });
    rows = mergeQueues(rows, [sample('api2', 'a.com', 1)], 't13');
    assert.equal(rows[0]!.chart.length, 1, 'another API_USER on the same domain is another queue');
  });

  test('categories list their domains joined by commas; polling stops when empty or closed', () => {
    assert.deepEqual(
      categoryDomains([sample('a', 'x.com', 1), sample('b', 'y.com', 1), sample('c', 'x.com', 1)]),
      [{ categoryId: 7, domains: 'x.com,y.com' }],
    );
    assert.equal(shouldPoll({ rows: [1], pageOpen: true, chartLoading: false }), true);
    assert.equal(shouldPoll({ rows: [], pageOpen: true, chartLoading: false }), false);
    assert.equal(shouldPoll({ rows: [1], pageOpen: false, chartLoading: false }), false);
    assert.equal(shouldPoll({ rows: [1], pageOpen: true, chartLoading: true }), false);
  });
});

describe('marketing cookies (§3)', () => {
  test('campaign parameters become sc_ cookies, kw the search term; no referrer is "none" for a day', () => {
    const cookies = marketingCookies('?source=baidu&plan=p1&kw=email%20api&lang=en', '', 'herald.test', null);
    assert.deepEqual(cookies, [
      { name: 'sc_source', value: 'baidu', days: 90 },
      { name: 'sc_plan', value: 'p1', days: 90 },
      { name: 'sc_search_term', value: 'email api', days: 90 },
      { name: 'sc_referrer', value: 'none', days: 1 },
    ]);
  });

  test('an external referrer is recorded for 90 days; the site itself is not a source', () => {
    assert.deepEqual(marketingCookies('', 'https://www.example.org/q?x=1', 'herald.test', 'none'), [
      { name: 'sc_referrer', value: 'www.example.org', days: 90 },
    ]);
    assert.deepEqual(
      marketingCookies('', 'https://herald.test/prices', 'herald.test', 'www.example.org'),
      [],
    );
  });
});

describe('menu (§2, §4, §6)', () => {
  const labels = (nodes: MenuNode[]) =>
    nodes.map((node) =>
      node.kind === 'group'
        ? `${node.id}[${node.children.map((c) => c.path).join(' ')}]`
        : node.kind === 'item'
          ? node.path
          : 'docs',
    );

  test('the email menu holds the areas the codes allow, a screen with its own code included', () => {
    const menu = labels(buildMenu('email', [PERMISSIONS.DASHBOARD, PERMISSIONS.EMAIL_SEND]));
    assert.deepEqual(menu, [
      '/backend/dashborad',
      'emailResponse[/sendResponse/queueStatus]',
      'emailSend[/sendRelative/test /sendRelative/template /sendRelative/address /sendRelative/subscription /sendRelative/timedTask /sendRelative/queue]',
      'accountSettings[/accountSetting/info /accountSetting/security]',
      'docs',
    ]);
  });

  test('the SMS menu is another product; the API documentation link is always there', () => {
    const menu = buildMenu('sms', [...ALL_PERMISSION_CODES], 'https://docs.example/api');
    assert.deepEqual(
      menu.map((node) => (node.kind === 'item' ? node.path : node.kind === 'group' ? node.id : node.href)),
      [
        '/backend/s_dashborad',
        'smsData',
        'smsResponse',
        'smsSend',
        'smsSettings',
        'accountSettings',
        'https://docs.example/api',
      ],
    );
  });

  test('for Huawei Cloud users the menu with id 2 (teammates) is removed', () => {
    const menus = ALL_PERMISSION_CODES.map((code) => ({ id: code, code }));
    assert.ok(applyMenuRules(menus, 0).some((menu) => menu.id === 2));
    assert.ok(!applyMenuRules(menus, 1).some((menu) => menu.id === 2));
    assert.equal(applyMenuRules(menus, 1).length, menus.length - 1);
  });
});

test('balances in fen show as yuan with two decimals', () => {
  assert.equal(fenToYuan(0), '0.00');
  assert.equal(fenToYuan(5), '0.05');
  assert.equal(fenToYuan(123456), '1,234.56');
});
