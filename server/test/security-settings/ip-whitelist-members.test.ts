import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PERMISSIONS as P } from '@herald/shared';
import { decodedBody } from '../helpers/mail.ts';
import { joinedMember, type SignedIn } from '../helpers/members.ts';
import { waitFor } from '../helpers/wait.ts';
import { IP_A, SecurityHarness } from './security-harness.ts';

/**
 * Who changes the IP whitelist: those who manage the team (the owner and administrators). A
 * visitor is view-only and a custom teammate never holds the teammates code at full, so both are
 * refused, before any verification is asked of them; every teammate can read the list.
 */
describe('IP whitelist and teammates', () => {
  const h = new SecurityHarness();
  let owner: SignedIn;
  let admin: SignedIn;
  let visitor: SignedIn;
  let custom: SignedIn;
  before(async () => {
    await h.start();
    const user = await h.user('wl_team');
    owner = { ctx: user.ctx, token: await h.session(user) };
    admin = await joinedMember(h.t, owner, 'wl_admin', { type: 'administrator' });
    visitor = await joinedMember(h.t, owner, 'wl_visitor', { type: 'visitor' });
    custom = await joinedMember(h.t, owner, 'wl_custom', {
      type: 'custom',
      levels: { [P.TEAMMATES]: 'read', [P.EMAIL_SEND]: 'full' },
    });
  });
  after(() => h.close());

  const save = (token: string, ips: string, lang = 'en') =>
    h.call('POST', '/v3/api/user/saveIPWhitelist', { token, ip: IP_A, lang, body: { ips } });

  /** The verification the console's dialog makes, by a code mailed to the member's own address. */
  async function verifyByMail(member: SignedIn, email: string): Promise<void> {
    const sent = await h.call('POST', '/v3/api/verify/sendEmailCode', { token: member.token, ip: IP_A });
    assert.equal(sent.statusCode, 200, sent.body);
    // The member's first mail was the invitation; the code comes in the next one.
    const code = await waitFor(`a code mailed to ${email}`, () => {
      const mails = h.mx.messages.filter((m) => m.rcptTo.includes(email));
      const texts = mails.map((m) => decodedBody(m.raw)).filter((text) => text.includes('verification code'));
      return texts.map((text) => /(?<!\d)(\d{6})(?!\d)/.exec(text)?.[1]).find(Boolean);
    });
    const res = await h.call('POST', '/v3/api/verify/sys', {
      token: member.token,
      ip: IP_A,
      body: { way: 'email', code },
    });
    assert.equal(res.statusCode, 200, res.body);
  }

  it('lets an administrator save and switch it once verified', async () => {
    const unverified = await save(admin.token, IP_A);
    assert.equal(unverified.statusCode, 403);
    assert.equal(unverified.json().code, 'VERIFY_REQUIRED');

    await verifyByMail(admin, 'wl_admin@example.com');
    const saved = await save(admin.token, `${IP_A}\n198.51.100.0/24`);
    assert.equal(saved.statusCode, 200, saved.body);
    assert.deepEqual(saved.json().data.ips, [IP_A, '198.51.100.0/24']);
    const on = await h.call('POST', '/v3/api/user/ipWhites/open', { token: admin.token, ip: IP_A });
    assert.equal(on.statusCode, 200, on.body);
    assert.equal(on.json().data.enabled, true);

    // The owner sees what the administrator set.
    const seen = await h.call('GET', '/v3/api/user/ipWhites', { token: owner.token, ip: IP_A });
    assert.deepEqual(seen.json().data.ips, [IP_A, '198.51.100.0/24']);
    const off = await h.call('POST', '/v3/api/user/ipWhites/close', { token: admin.token, ip: IP_A });
    assert.equal(off.json().data.enabled, false);
  });

  it('refuses a visitor and a custom teammate, who can still read it', async () => {
    const byVisitor = await save(visitor.token, '203.0.113.9', 'zh-cn');
    assert.equal(byVisitor.statusCode, 403);
    assert.equal(byVisitor.json().code, 'AUTH_READ_ONLY');
    assert.equal(byVisitor.json().message, '您只有查看权限，不能修改或下载，请联系团队管理员');
    const visitorSwitch = await h.call('POST', '/v3/api/user/ipWhites/open', {
      token: visitor.token,
      ip: IP_A,
    });
    assert.equal(visitorSwitch.statusCode, 403);

    const byCustom = await save(custom.token, '203.0.113.9');
    assert.equal(byCustom.statusCode, 403);
    assert.equal(byCustom.json().code, 'AUTH_PERMISSION_DENIED');
    assert.equal(byCustom.json().message, 'Insufficient permission, please contact your team administrator');

    for (const member of [visitor, custom]) {
      const read = await h.call('GET', '/v3/api/user/ipWhites', { token: member.token, ip: IP_A });
      assert.equal(read.statusCode, 200);
      assert.deepEqual(read.json().data.ips, [IP_A, '198.51.100.0/24']);
    }
  });
});
