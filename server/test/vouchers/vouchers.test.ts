import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PERMISSIONS } from '@herald/shared';
import { addBeijingMonths } from '../../src/core/vouchers/vouchers.service.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { testDialect } from '../helpers/database.ts';
import { createOwner, joinedMember, type SignedIn } from '../helpers/members.ts';
import { api, operatorSession } from '../templates/template-helpers.ts';

/**
 * Vouchers and benefit packages through the console API (issue 18): the operator issues vouchers
 * to an account or bare, the customer lists them, claims a bare one by its code and uses one
 * (credited once, also when used twice at once), a free account is refused until it has
 * recharged, an expired voucher cannot be used, and the calls' tenancy and permissions hold.
 */
describe(`vouchers and packages on ${testDialect}`, () => {
  let t: TestApp;
  let call: ReturnType<typeof api>;
  let operator: SignedIn;

  before(async () => {
    t = await buildTestApp();
    call = api(t);
    operator = await operatorSession(t);
  });
  after(async () => {
    await t?.close();
  });

  let bankRef = 0;
  const makePaid = (who: SignedIn) =>
    t.core.recharges.recordOffline(null, who.ctx.accountId, {
      amount: '100',
      remitter: 'Test Co',
      bankRef: `VCH${testDialect}${++bankRef}`,
    });
  const balanceOf = async (who: SignedIn) =>
    (await call('GET', '/v3/api/userInfo/userBalance', who)).json().data.balance as number;
  const issue = async (payload: object) => {
    const res = await call('POST', '/v3/api/admin/vouchers', operator, payload);
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data as { id: number; code: string; amountFen: number; expiresAt: number }[];
  };
  const voucherEntries = (who: SignedIn) =>
    t.core.database.db
      .selectFrom('ledger_entries')
      .select(['amount_fen', 'idempotency_key'])
      .where('account_id', '=', who.ctx.accountId)
      .where('kind', '=', 'voucher')
      .execute();

  it('issues vouchers valid 3 Beijing months with unambiguous codes, and lists them to their account', async () => {
    const owner = await createOwner(t, 'vch_list');
    const before = Date.now();
    const issued = await issue({
      accountId: owner.ctx.accountId,
      amount: '25.5',
      count: 2,
      reason: 'compensation',
    });
    assert.equal(issued.length, 2);
    for (const v of issued) {
      assert.match(v.code, /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{16}$/);
      assert.equal(v.amountFen, 2550);
      assert.ok(v.expiresAt >= addBeijingMonths(before, 3) && v.expiresAt <= addBeijingMonths(Date.now(), 3));
    }
    const page = (await call('GET', '/v3/api/vouchers', owner)).json().data;
    assert.equal(page.total, 2);
    assert.equal(page.free, true);
    assert.deepEqual(
      page.list.map((v: { status: string; reason: string }) => [v.status, v.reason]),
      [
        ['unused', 'compensation'],
        ['unused', 'compensation'],
      ],
    );
    // 30 November 10:00 Beijing + 3 months = 28 February 10:00 Beijing (no 30th).
    const nov30 = Date.UTC(2026, 10, 30, 2);
    assert.equal(new Date(addBeijingMonths(nov30, 3)).toISOString(), '2027-02-28T02:00:00.000Z');
    const invalid = await call('POST', '/v3/api/admin/vouchers', operator, { amount: '0', count: 1 });
    assert.equal(invalid.statusCode, 400);
    assert.match(invalid.json().error, /between 0.01 and 100,000 yuan/);
  });

  it('refuses a free account, then credits a used voucher once, also when used twice at once', async () => {
    const owner = await createOwner(t, 'vch_use');
    const [voucher] = await issue({ accountId: owner.ctx.accountId, amount: '50' });
    assert.ok(voucher);
    const free = await call('POST', `/v3/api/vouchers/${voucher.id}/use`, owner);
    assert.equal(free.statusCode, 409, free.body);
    assert.equal(free.json().code, 'VOUCHER_FREE_ACCOUNT');
    assert.match(free.json().error, /Free users cannot use vouchers; top up/);
    const zh = await call('POST', `/v3/api/vouchers/${voucher.id}/use`, owner, undefined, 'zh-cn');
    assert.equal(zh.json().error, '免费用户不能使用代金券, 请先充值升级为付费用户后再使用');
    assert.equal(await balanceOf(owner), 0);

    await makePaid(owner);
    assert.equal(await balanceOf(owner), 10_000);
    const both = await Promise.all([
      call('POST', `/v3/api/vouchers/${voucher.id}/use`, owner),
      call('POST', `/v3/api/vouchers/${voucher.id}/use`, owner),
    ]);
    assert.deepEqual(both.map((r) => r.statusCode).sort(), [200, 409], both.map((r) => r.body).join(' '));
    const ok = both.find((r) => r.statusCode === 200)?.json().data;
    assert.equal(ok.voucher.status, 'used');
    assert.equal(ok.balanceFen, 15_000);
    assert.equal(both.find((r) => r.statusCode === 409)?.json().code, 'VOUCHER_ALREADY_USED');
    assert.equal(await balanceOf(owner), 15_000, 'credited once');
    assert.deepEqual(
      (await voucherEntries(owner)).map((e) => [Number(e.amount_fen), e.idempotency_key]),
      [[5000, `voucher:${voucher.id}`]],
    );
    const again = await call('POST', `/v3/api/vouchers/${voucher.id}/use`, owner);
    assert.equal(again.statusCode, 409);
    const listed = (await call('GET', '/v3/api/vouchers?status=used', owner)).json().data;
    assert.deepEqual(
      listed.list.map((v: { id: number }) => v.id),
      [voucher.id],
    );
    assert.equal(listed.free, false);
    assert.equal(await t.core.ledger.drift(), 0);
  });

  it('claims a bare voucher by its code once, typed in any case with dashes', async () => {
    const ann = await createOwner(t, 'vch_claim_a');
    const bob = await createOwner(t, 'vch_claim_b');
    const [bare] = await issue({ amount: '10' });
    assert.ok(bare);
    const typed = `${bare.code.slice(0, 4)}-${bare.code.slice(4, 8)} ${bare.code.slice(8)}`.toLowerCase();
    const claimed = await call('POST', '/v3/api/vouchers/claim', ann, { code: typed });
    assert.equal(claimed.statusCode, 200, claimed.body);
    assert.equal(claimed.json().data.accountId, ann.ctx.accountId);
    const repeat = await call('POST', '/v3/api/vouchers/claim', ann, { code: bare.code });
    assert.equal(repeat.statusCode, 200, 'claiming one’s own again answers it');
    const taken = await call('POST', '/v3/api/vouchers/claim', bob, { code: bare.code });
    assert.equal(taken.statusCode, 404);
    assert.equal(taken.json().code, 'VOUCHER_CODE_UNKNOWN');
    const unknown = await call('POST', '/v3/api/vouchers/claim', bob, { code: 'ABCDEFGHJKMNPQRS' });
    assert.equal(unknown.statusCode, 404);
    const malformed = await call('POST', '/v3/api/vouchers/claim', bob, { code: 'O0I1' }, 'zh-cn');
    assert.equal(malformed.statusCode, 400);
    assert.equal(malformed.json().fields[0].message, '请输入16位兑换码(字母和数字)');
    assert.equal((await call('GET', '/v3/api/vouchers', ann)).json().data.total, 1);
    assert.equal((await call('GET', '/v3/api/vouchers', bob)).json().data.total, 0);
  });

  it('does not use an expired or voided voucher, and the expiry task marks it', async () => {
    const owner = await createOwner(t, 'vch_expire');
    await makePaid(owner);
    const [old, voided] = await issue({ accountId: owner.ctx.accountId, amount: '5', count: 2 });
    assert.ok(old && voided);
    await t.core.database.db
      .updateTable('vouchers')
      .set({ expires_at: Date.now() - 1 })
      .where('id', '=', old.id)
      .execute();
    const expired = await call('POST', `/v3/api/vouchers/${old.id}/use`, owner);
    assert.equal(expired.statusCode, 410);
    assert.equal(expired.json().code, 'VOUCHER_EXPIRED');
    const listed = (await call('GET', '/v3/api/vouchers?status=expired', owner)).json().data;
    assert.deepEqual(
      listed.list.map((v: { id: number; status: string }) => [v.id, v.status]),
      [[old.id, 'expired']],
    );
    assert.ok((await t.core.vouchers.expireDue()) >= 1);
    const stored = await t.core.database.db
      .selectFrom('vouchers')
      .select('status')
      .where('id', '=', old.id)
      .executeTakeFirstOrThrow();
    assert.equal(stored.status, 'expired');

    const v = await call('POST', `/v3/api/admin/vouchers/${voided.id}/void`, operator);
    assert.equal(v.json().data.status, 'voided');
    const use = await call('POST', `/v3/api/vouchers/${voided.id}/use`, owner);
    assert.equal(use.json().code, 'VOUCHER_VOIDED');
    assert.equal(await balanceOf(owner), 10_000, 'nothing credited');
  });

  it('keeps vouchers and packages to their account and their permission; the admin calls to operators', async () => {
    const ann = await createOwner(t, 'vch_tenant_a');
    const bob = await createOwner(t, 'vch_tenant_b');
    await makePaid(bob);
    const [annVoucher] = await issue({ accountId: ann.ctx.accountId, amount: '8' });
    assert.ok(annVoucher);
    const stolen = await call('POST', `/v3/api/vouchers/${annVoucher.id}/use`, bob);
    assert.equal(stolen.statusCode, 404);
    assert.equal(stolen.json().code, 'VOUCHER_NOT_FOUND');

    const grant = await call('POST', '/v3/api/admin/packages', operator, {
      accountId: ann.ctx.accountId,
      type: 'email',
      quota: 5000,
      months: 2,
    });
    assert.equal(grant.statusCode, 201, grant.body);
    const unknownType = await call('POST', '/v3/api/admin/packages', operator, {
      accountId: ann.ctx.accountId,
      type: 'carrier_pigeon',
      quota: 5,
    });
    assert.equal(unknownType.statusCode, 400);
    const annPackages = (await call('GET', '/v3/api/userBenefitPackage', ann)).json().data;
    assert.deepEqual(
      annPackages.map((p: { type: string; quota: number; used: number; status: string }) => [
        p.type,
        p.quota,
        p.used,
        p.status,
      ]),
      [['email', 5000, 0, 'active']],
    );
    assert.deepEqual((await call('GET', '/v3/api/userBenefitPackage', bob)).json().data, []);

    const clerk = await joinedMember(t, ann, 'vch_clerk', {
      type: 'custom',
      levels: { [PERMISSIONS.BILL]: 'full' },
    });
    const accountant = await joinedMember(t, ann, 'vch_accountant', {
      type: 'custom',
      levels: { [PERMISSIONS.FINANCE]: 'full' },
    });
    for (const [method, url] of [
      ['GET', '/v3/api/vouchers'],
      ['GET', '/v3/api/userBenefitPackage'],
      ['POST', `/v3/api/vouchers/${annVoucher.id}/use`],
      ['POST', '/v3/api/vouchers/claim'],
    ] as const) {
      assert.equal((await call(method, url, clerk, {})).statusCode, 403, `${method} ${url} needs FINANCE`);
    }
    assert.equal((await call('GET', '/v3/api/vouchers', accountant)).json().data.total, 1);

    for (const [method, url] of [
      ['GET', '/v3/api/admin/vouchers'],
      ['POST', '/v3/api/admin/vouchers'],
      ['POST', `/v3/api/admin/vouchers/${annVoucher.id}/void`],
      ['GET', '/v3/api/admin/packages'],
      ['POST', '/v3/api/admin/packages'],
    ] as const) {
      assert.equal((await call(method, url, ann, {})).statusCode, 403, `${method} ${url} is for operators`);
    }
    const all = (await call('GET', `/v3/api/admin/vouchers?accountId=${ann.ctx.accountId}`, operator)).json()
      .data;
    assert.equal(all.list[0].username, 'vch_tenant_a');
    const packages = (
      await call('GET', `/v3/api/admin/packages?accountId=${ann.ctx.accountId}`, operator)
    ).json().data;
    assert.equal(packages.length, 1);
  });
});
