import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ipInRanges, ipWhitelistSchema, parseIpEntry } from '@herald/shared';
import { IP_A, IP_B, SecurityHarness } from './security-harness.ts';

/**
 * The IP whitelist: validated per line (product-spec §5), changed only by the owner with a recent
 * verification, and enforced on every login and console API call of the account. Requests come
 * from 127.0.0.1, an internal address no whitelist may name, so clients are told apart by
 * X-Forwarded-For (the app trusts its proxy) with public test addresses.
 */
describe('IP whitelist', () => {
  const h = new SecurityHarness();
  before(() => h.start());
  after(() => h.close());

  const save = (token: string, ips: unknown, options: { ip?: string; lang?: string } = {}) =>
    h.call('POST', '/v3/api/user/saveIPWhitelist', {
      token,
      ip: options.ip ?? IP_A,
      lang: options.lang,
      body: { ips },
    });
  const toggle = (token: string, action: 'open' | 'close', ip = IP_A) =>
    h.call('POST', `/v3/api/user/ipWhites/${action}`, { token, ip });

  it('parses one IP, a range or a CIDR per line, IPv4 and IPv6', () => {
    const ranges = ['203.0.113.0/24', '198.51.100.7-198.51.100.9', '2001:db8::/32'].map(
      (e) => parseIpEntry(e)!,
    );
    for (const inside of ['203.0.113.200', '::ffff:203.0.113.1', '198.51.100.8', '2001:db8:1::5']) {
      assert.ok(ipInRanges(inside, ranges), inside);
    }
    for (const outside of ['203.0.114.1', '198.51.100.10', '2001:db9::1', '127.0.0.1', 'junk']) {
      assert.ok(!ipInRanges(outside, ranges), outside);
    }
    for (const bad of [
      '1.2.3',
      '256.1.1.1',
      '1.2.3.4/33',
      '1.2.3.9-1.2.3.4',
      '1::2::3',
      '1.2.3.4-2001:db8::1',
    ]) {
      assert.equal(parseIpEntry(bad), null, bad);
    }
    const parsed = ipWhitelistSchema.parse({
      ips: ' 203.0.113.1 \n\n203.0.113.1\n203.0.113.1 - 203.0.113.4',
    });
    assert.deepEqual(parsed.ips, ['203.0.113.1', '203.0.113.1-203.0.113.4']);
  });

  it('reports each bad line, internal ranges and the maximum in the caller language', async () => {
    const user = await h.user('wl_rules');
    const token = await h.session(user);
    const lines = [
      '203.0.113.7',
      '10.1.2.3',
      'not-an-ip',
      '192.168.0.0/16',
      '172.20.0.1-172.20.0.9',
      '::1',
      'fe80::1',
      'fd12:3456::/48',
      '0.0.0.0/0',
      '169.254.1.1',
      '127.0.0.1',
      '2001:db8::1',
    ].join('\n');
    const en = await save(token, lines);
    assert.equal(en.statusCode, 400);
    const fields = en.json().fields.map((f: { field: string; rule: string }) => `${f.field}:${f.rule}`);
    assert.deepEqual(fields, [
      'ips.2:ipWhitelistInternal',
      'ips.3:ipWhitelistFormat',
      'ips.4:ipWhitelistInternal',
      'ips.5:ipWhitelistInternal',
      'ips.6:ipWhitelistInternal',
      'ips.7:ipWhitelistInternal',
      'ips.8:ipWhitelistInternal',
      'ips.9:ipWhitelistInternal',
      'ips.10:ipWhitelistInternal',
      'ips.11:ipWhitelistInternal',
    ]);
    assert.equal(
      en.json().fields[0].message,
      'Internal (private, loopback or link-local) addresses are not allowed',
    );
    const zh = await save(token, lines, { lang: 'zh-cn' });
    assert.equal(zh.json().fields[0].message, '不允许填写内网地址');
    assert.match(zh.json().fields[1].message, /^IP格式错误/);

    const many = Array.from({ length: 21 }, (_, i) => `198.51.100.${i + 1}`);
    const tooMany = await save(token, many);
    assert.deepEqual(tooMany.json().fields, [
      { field: 'ips', message: 'At most 20 whitelist IPs', rule: 'ipWhitelistTooMany' },
    ]);
    assert.equal((await save(token, many, { lang: 'zh-cn' })).json().fields[0].message, '最多20个白名单IP');

    await h.verifySession(user, token);
    const twenty = await save(token, many.slice(0, 20));
    assert.equal(twenty.statusCode, 200, twenty.body);
    assert.equal(twenty.json().data.ips.length, 20);
    const listed = await h.call('GET', '/v3/api/user/listIPWhitelist', { token, ip: IP_A });
    assert.deepEqual(listed.json().data, twenty.json().data);
  });

  it('lets only the owner change it, after a recent verification, and never so as to exclude them', async () => {
    const owner = await h.user('wl_owner');
    const token = await h.session(owner);
    assert.equal((await save(token, '203.0.113.0/24')).json().code, 'VERIFY_REQUIRED');
    assert.equal((await toggle(token, 'open')).json().code, 'VERIFY_REQUIRED');
    await h.verifySession(owner, token);
    assert.equal((await save(token, '198.51.100.0/24')).statusCode, 200);
    const excluded = await toggle(token, 'open');
    assert.equal(excluded.statusCode, 400);
    assert.equal(
      excluded.json().message,
      `The IP whitelist must include your current IP address (${IP_A}), or you would lock yourself out`,
    );

    const member = await h.core.accounts.addMember(owner.ctx, {
      username: 'wl_member',
      email: 'wl_member@example.com',
      phone: '13911112222',
      permissions: [],
    });
    const memberToken = await h.core.sessions.create(member);
    const memberUser = {
      name: 'wl_member',
      email: 'wl_member@example.com',
      phone: '13911112222',
      ctx: member,
    };
    await h.verifySession(memberUser, memberToken);
    const denied = await save(memberToken, '203.0.113.0/24');
    assert.equal(denied.statusCode, 403);
    assert.equal(denied.json().code, 'AUTH_PERMISSION_DENIED');
    assert.equal(
      (await h.call('GET', '/v3/api/user/ipWhites', { token: memberToken, ip: IP_A })).statusCode,
      200,
    );
  });

  it('refuses logins and API calls of the account from outside the list once it is on', async () => {
    const owner = await h.user('wl_enforce');
    const bystander = await h.user('wl_other');
    const token = await h.session(owner, IP_A);
    const otherToken = await h.session(bystander, IP_B);
    await h.verifySession(owner, token);
    assert.equal((await save(token, '203.0.113.0/24\n2001:db8::/32')).statusCode, 200);
    const opened = await toggle(token, 'open');
    assert.equal(opened.statusCode, 200, opened.body);
    assert.equal(opened.json().data.enabled, true);

    const me = (ip?: string, lang = 'en') => h.call('GET', '/v3/api/userInfo', { token, ip, lang });
    assert.equal((await me('203.0.113.77')).statusCode, 200);
    assert.equal((await me('2001:db8::42')).statusCode, 200);
    const outside = await me(IP_B);
    assert.equal(outside.statusCode, 403);
    assert.equal(outside.json().code, 'IP_NOT_WHITELISTED');
    assert.equal(
      outside.json().message,
      `Your IP address (${IP_B}) is not in the account IP whitelist, access denied`,
    );
    assert.equal((await me(IP_B, 'zh-cn')).json().message, `当前IP（${IP_B}）不在账号的IP白名单中，禁止访问`);
    assert.equal((await me()).statusCode, 403, 'no forwarded address: 127.0.0.1, outside the list');
    const settings = await h.call('GET', '/v3/api/user/config/securitySetting', { token, ip: IP_B });
    assert.equal(settings.statusCode, 403, 'every console API call, not only some');

    const refusedLogin = await h.login(owner.name, { ip: IP_B });
    assert.equal(refusedLogin.statusCode, 403);
    assert.equal(refusedLogin.json().code, 'IP_NOT_WHITELISTED');
    const wrongPassword = await h.login(owner.name, { ip: IP_B, password: 'Wrong#2026x' });
    assert.equal(
      wrongPassword.json().code,
      'AUTH_BAD_CREDENTIALS',
      'the whitelist is told only with the password',
    );
    assert.ok((await h.login(owner.name, { ip: '203.0.113.9' })).json().data.token);
    const log = await h.core.auth.loginLog(owner.ctx);
    assert.ok(log.some((e) => e.result === 'ip_refused' && e.ip === IP_B));

    // Another account is not affected.
    assert.equal((await h.call('GET', '/v3/api/userInfo', { token: otherToken, ip: IP_B })).statusCode, 200);

    // Saving a list that drops the caller's address is refused while the whitelist is on.
    assert.equal((await save(token, '2001:db8::/32')).json().code, 'IP_WHITELIST_SELF_EXCLUDED');
    const closed = await toggle(token, 'close');
    assert.equal(closed.json().data.enabled, false);
    assert.equal((await me(IP_B)).statusCode, 200);
  });
});
