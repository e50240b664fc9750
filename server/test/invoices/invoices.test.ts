import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PERMISSIONS } from '@herald/shared';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { testDialect } from '../helpers/database.ts';
import { createOwner, joinedMember, type SignedIn } from '../helpers/members.ts';
import { api, operatorSession } from '../templates/template-helpers.ts';

const BILLS = '/v3/api/order/billTicketOrders';
const ADMIN = '/v3/api/admin/invoices';
const PROFILE = {
  title: 'Example Trading Co., Ltd.',
  taxpayerId: '91350100M000100Y43',
  bankName: 'ICBC Fuzhou Branch',
  bankAccount: '1402 0210 0920 0123 456',
  address: '1 Example Road, Fuzhou',
  phone: '0591-12345678',
};
const PAPER = {
  type: 'ordinary',
  material: 'paper',
  delivery: 'post',
  method: 'all_in_one',
  recipient: 'Li Lei',
  recipientPhone: '13800138000',
  mailingAddress: '1 Example Road, Fuzhou',
};
const ELECTRONIC = { type: 'electronic', material: 'electronic', delivery: 'email', email: 'ap@example.com' };

/**
 * Invoices (issue 18; reference payments-and-identity §4.4, §5): the profile's rules (the USCC
 * check character, in both languages), the invoiceable amount from paid recharges only, postage
 * taken from the balance under 2,000 yuan and free from 2,000, the electronic quota, the
 * lifecycle (reject with a reason → resubmit, ship, e-mail, void returning the amount and the
 * postage), tenancy, the finance permission and the operator-only calls.
 */
describe(`invoices on ${testDialect}`, () => {
  let t: TestApp;
  let call: ReturnType<typeof api>;
  let operator: SignedIn;
  let bank = 0;

  before(async () => {
    t = await buildTestApp();
    call = api(t);
    operator = await operatorSession(t);
  });
  after(async () => {
    await t?.close();
  });

  const recharge = (who: SignedIn, amount: string) =>
    t.core.recharges.recordOffline(null, who.ctx.accountId, {
      amount,
      remitter: PROFILE.title,
      bankRef: `INV-${testDialect}-${++bank}`,
    });
  const balanceOf = (who: SignedIn) => t.core.ledger.balance({ accountId: who.ctx.accountId });
  const summaryOf = async (who: SignedIn) => (await call('GET', `${BILLS}/summary`, who)).json().data;
  const entriesOf = (who: SignedIn) =>
    t.core.database.db
      .selectFrom('ledger_entries')
      .select(['kind', 'amount_fen', 'idempotency_key'])
      .where('account_id', '=', who.ctx.accountId)
      .where('idempotency_key', 'like', 'invoice-%')
      .orderBy('id')
      .execute();
  const customer = async (name: string, rechargeYuan?: string) => {
    const owner = await createOwner(t, name);
    if (rechargeYuan) await recharge(owner, rechargeYuan);
    const saved = await call('PUT', '/v3/api/user/invoice', owner, PROFILE);
    assert.equal(saved.statusCode, 200, saved.body);
    return owner;
  };
  const apply = (who: SignedIn, body: object) => call('POST', BILLS, who, body);

  it('keeps one profile per account and checks the taxpayer ID, in both languages', async () => {
    const owner = await createOwner(t, 'inv_profile');
    assert.equal((await call('GET', '/v3/api/user/invoice', owner)).json().data, null);
    const bad = { ...PROFILE, taxpayerId: '91350100M000100Y42' };
    const en = await call('PUT', '/v3/api/user/invoice', owner, bad, 'en');
    assert.equal(en.statusCode, 400);
    const enField = en.json().fields.find((f: { field: string }) => f.field === 'taxpayerId');
    assert.match(enField.message, /check character/);
    const zh = await call('PUT', '/v3/api/user/invoice', owner, bad, 'zh-cn');
    const zhField = zh.json().fields.find((f: { field: string }) => f.field === 'taxpayerId');
    assert.match(zhField.message, /纳税人识别号/);
    for (const wrong of ['1234567890123456', 'ABC', '91350100M000100Y', '91350100M000100Y4!']) {
      const r = await call('PUT', '/v3/api/user/invoice', owner, { ...PROFILE, taxpayerId: wrong });
      assert.equal(r.statusCode, 400, wrong);
    }
    const badBank = await call('PUT', '/v3/api/user/invoice', owner, { ...PROFILE, bankAccount: '12ab' });
    assert.equal(badBank.json().fields[0].field, 'bankAccount');

    // Full-width, spaced, lower-case input is normalised; 15- and 20-character IDs pass by shape.
    const saved = await call('PUT', '/v3/api/user/invoice', owner, {
      ...PROFILE,
      taxpayerId: ' ９１３５０１００ｍ０００１００ｙ４３ ',
    });
    assert.equal(saved.statusCode, 200, saved.body);
    assert.equal(saved.json().data.taxpayerId, '91350100M000100Y43');
    assert.equal(saved.json().data.bankAccount, '1402021009200123456');
    for (const id of ['110108123456789', '11010812345678901234']) {
      const r = await call('PUT', '/v3/api/user/invoice', owner, { ...PROFILE, taxpayerId: id });
      assert.equal(r.statusCode, 200, id);
    }
    const again = await call('PUT', '/v3/api/user/invoice', owner, { ...PROFILE, title: 'Renamed Co.' });
    assert.equal(again.json().data.title, 'Renamed Co.');
    const rows = await t.core.database.db
      .selectFrom('invoice_profiles')
      .select('title')
      .where('account_id', '=', owner.ctx.accountId)
      .execute();
    assert.deepEqual(rows, [{ title: 'Renamed Co.' }]);
  });

  it('invoices paid recharges only, and never more than is left', async () => {
    const noProfile = await createOwner(t, 'inv_noprofile');
    await recharge(noProfile, '100');
    const needProfile = await apply(noProfile, { ...ELECTRONIC, amount: '10' });
    assert.equal(needProfile.statusCode, 428);
    assert.equal(needProfile.json().code, 'INVOICE_PROFILE_REQUIRED');

    const owner = await customer('inv_pool', '1000');
    await t.core.ledger.adjust(null, owner.ctx.accountId, { amountFen: 50_000, reason: 'goodwill' });
    let summary = await summaryOf(owner);
    assert.equal(summary.invoiceableFen, 100_000, 'the adjustment is not invoiceable');
    assert.equal(summary.balanceFen, 150_000);
    assert.equal(summary.profile.title, PROFILE.title);

    const over = await apply(owner, { ...ELECTRONIC, amount: '1000.01' });
    assert.equal(over.statusCode, 422);
    assert.equal(over.json().code, 'INVOICE_AMOUNT_EXCEEDED');
    assert.match(over.json().message, /1000\.00/);

    const first = await apply(owner, { ...ELECTRONIC, amount: '600' });
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(first.json().data.status, 'applied');
    assert.equal(first.json().data.profile.taxpayerId, PROFILE.taxpayerId);
    summary = await summaryOf(owner);
    assert.equal(summary.invoiceableFen, 40_000);
    assert.equal(summary.invoicedFen, 60_000);
    assert.equal((await apply(owner, { ...ELECTRONIC, amount: '400.01' })).statusCode, 422);
    assert.equal((await apply(owner, { ...ELECTRONIC, amount: '400' })).statusCode, 201);
    assert.equal((await summaryOf(owner)).invoiceableFen, 0);

    // Combinations the shared schema refuses, field by field.
    const mixed = await apply(owner, { ...PAPER, type: 'vat_special', material: 'electronic', amount: '1' });
    assert.equal(mixed.statusCode, 400);
    assert.deepEqual(
      mixed.json().fields.map((f: { field: string }) => f.field),
      ['material'],
    );
    const noEmail = await apply(owner, { ...ELECTRONIC, email: '', amount: '1' });
    assert.deepEqual(
      noEmail.json().fields.map((f: { field: string }) => f.field),
      ['email'],
    );
    const noAddress = await apply(owner, { ...PAPER, mailingAddress: '', amount: '1' });
    assert.deepEqual(
      noAddress.json().fields.map((f: { field: string }) => f.field),
      ['mailingAddress'],
    );
  });

  it('refuses an electronic invoice over its quota and points to paper', async () => {
    const owner = await customer('inv_equota', '20000');
    const big = await apply(owner, { ...ELECTRONIC, amount: '10000.01' });
    assert.equal(big.statusCode, 422);
    assert.equal(big.json().code, 'INVOICE_ELECTRONIC_LIMIT');
    assert.match(big.json().message, /select paper invoice/);
    const paper = await apply(owner, { ...PAPER, amount: '10000.01' });
    assert.equal(paper.statusCode, 201, paper.body);
    assert.equal(paper.json().data.postageFen, 0);
  });

  it('takes 18 yuan postage under 2,000 yuan, ships free from 2,000, nothing on arrival', async () => {
    const owner = await customer('inv_postage', '5000');
    const small = await apply(owner, { ...PAPER, amount: '1999.99' });
    assert.equal(small.statusCode, 201, small.body);
    assert.equal(small.json().data.postageFen, 1800);
    assert.equal(await balanceOf(owner), 500_000 - 1800);
    const id = small.json().data.id;
    assert.deepEqual(await entriesOf(owner), [
      { kind: 'charge', amount_fen: -1800, idempotency_key: `invoice-postage:${id}` },
    ]);
    const free = await apply(owner, { ...PAPER, amount: '2000' });
    assert.equal(free.json().data.postageFen, 0);
    const cod = await apply(owner, { ...PAPER, delivery: 'cod', amount: '10' });
    assert.equal(cod.json().data.postageFen, 0);
    assert.equal(await balanceOf(owner), 500_000 - 1800);
    assert.equal((await entriesOf(owner)).length, 1);
  });

  it('refuses postage the balance cannot cover, and says so', async () => {
    const owner = await customer('inv_poor', '100');
    await t.core.ledger.adjust(null, owner.ctx.accountId, { amountFen: -9_000, reason: 'spent' });
    assert.equal(await balanceOf(owner), 1_000);
    const refused = await apply(owner, { ...PAPER, amount: '100' });
    assert.equal(refused.statusCode, 402);
    assert.equal(refused.json().code, 'INVOICE_POSTAGE_BALANCE');
    assert.match(refused.json().message, /10\.00 yuan cannot cover the 18\.00 yuan postage/);
    const zh = await call('POST', BILLS, owner, { ...PAPER, amount: '100' }, 'zh-cn');
    assert.match(zh.json().message, /余额10\.00元不足以支付18\.00元邮费/);
    assert.equal((await call('GET', BILLS, owner)).json().data.total, 0, 'nothing was written');
    assert.equal(await balanceOf(owner), 1_000);
    assert.equal((await apply(owner, { ...PAPER, delivery: 'cod', amount: '100' })).statusCode, 201);
  });

  it('rejects with a reason, takes a resubmission, and ships it', async () => {
    const owner = await customer('inv_reject', '1000');
    const applied = (await apply(owner, { ...PAPER, amount: '500' })).json().data;
    assert.equal(await balanceOf(owner), 100_000 - 1800);

    const noReason = await call('POST', `${ADMIN}/${applied.id}/reject`, operator, { reason: ' ' });
    assert.equal(noReason.statusCode, 400);
    const rejected = await call('POST', `${ADMIN}/${applied.id}/reject`, operator, {
      reason: 'The title must match the certified company name',
    });
    assert.equal(rejected.statusCode, 200, rejected.body);
    assert.equal(rejected.json().data.userName, 'inv_reject');
    const seen = (await call('GET', `${BILLS}/${applied.id}`, owner)).json().data;
    assert.equal(seen.status, 'rejected');
    assert.equal(seen.rejectReason, 'The title must match the certified company name');
    assert.equal((await summaryOf(owner)).invoiceableFen, 100_000, 'the amount is back in the pool');
    assert.equal(await balanceOf(owner), 100_000, 'the postage came back');
    assert.equal(
      (await call('POST', `${ADMIN}/${applied.id}/reject`, operator, { reason: 'x' })).statusCode,
      409,
    );

    await call('PUT', '/v3/api/user/invoice', owner, {
      ...PROFILE,
      title: 'Example Trading Co., Ltd. (Fuzhou)',
    });
    const resubmitted = await call('POST', `${BILLS}/${applied.id}/resubmit`, owner, {
      ...PAPER,
      amount: '600',
    });
    assert.equal(resubmitted.statusCode, 200, resubmitted.body);
    const again = resubmitted.json().data;
    assert.equal(again.status, 'applied');
    assert.equal(again.rejectReason, null);
    assert.equal(again.amountFen, 60_000);
    assert.equal(again.resubmissions, 1);
    assert.equal(again.profile.title, 'Example Trading Co., Ltd. (Fuzhou)');
    assert.equal(await balanceOf(owner), 100_000 - 1800);
    assert.deepEqual(
      (await entriesOf(owner)).map((e) => [e.kind, Number(e.amount_fen), e.idempotency_key]),
      [
        ['charge', -1800, `invoice-postage:${applied.id}`],
        ['refund', 1800, `invoice-postage-refund:${applied.id}`],
        ['charge', -1800, `invoice-postage:${applied.id}:1`],
      ],
    );
    assert.equal(
      (await call('POST', `${BILLS}/${applied.id}/resubmit`, owner, { ...PAPER, amount: '600' })).statusCode,
      409,
    );

    const emailPaper = await call('POST', `${ADMIN}/${applied.id}/emailed`, operator);
    assert.equal(emailPaper.statusCode, 409);
    assert.equal(
      (await call('POST', `${ADMIN}/${applied.id}/invoiced`, operator)).json().data.status,
      'invoiced',
    );
    assert.equal(
      (await call('POST', `${BILLS}/${applied.id}/void`, owner)).statusCode,
      409,
      'too late for the customer',
    );
    const shipped = await call('POST', `${ADMIN}/${applied.id}/shipped`, operator, {
      expressNo: 'SF1234567890',
    });
    assert.equal(shipped.statusCode, 200, shipped.body);
    const final = (await call('GET', `${BILLS}/${applied.id}`, owner)).json().data;
    assert.equal(final.status, 'shipped');
    assert.equal(final.expressNo, 'SF1234567890');
    assert.ok(final.invoicedAt && final.deliveredAt);
  });

  it('voids: the amount returns to the pool, postage only before invoicing', async () => {
    const owner = await customer('inv_void', '3000');
    const a = (await apply(owner, { ...PAPER, amount: '100' })).json().data;
    const b = (await apply(owner, { ...PAPER, amount: '200' })).json().data;
    const e = (await apply(owner, { ...ELECTRONIC, amount: '300' })).json().data;
    assert.equal(await balanceOf(owner), 300_000 - 3600);
    assert.equal((await summaryOf(owner)).invoiceableFen, 300_000 - 60_000);

    const voided = await call('POST', `${BILLS}/${a.id}/void`, owner);
    assert.equal(voided.statusCode, 200, voided.body);
    assert.equal(voided.json().data.status, 'voided');
    assert.equal(await balanceOf(owner), 300_000 - 1800);
    assert.equal((await call('POST', `${BILLS}/${a.id}/void`, owner)).statusCode, 409);

    await call('POST', `${ADMIN}/${b.id}/invoiced`, operator);
    assert.equal((await call('POST', `${ADMIN}/${b.id}/void`, operator)).json().data.status, 'voided');
    assert.equal(await balanceOf(owner), 300_000 - 1800, 'an issued invoice keeps its postage');

    const mailed = await call('POST', `${ADMIN}/${e.id}/emailed`, operator);
    assert.equal(mailed.json().data.status, 'emailed');
    assert.equal(
      (await call('POST', `${ADMIN}/${e.id}/shipped`, operator, { expressNo: 'SF1' })).statusCode,
      409,
    );
    assert.equal((await summaryOf(owner)).invoiceableFen, 300_000 - 30_000);
    assert.deepEqual(
      (await entriesOf(owner)).map((x) => x.idempotency_key),
      [`invoice-postage:${a.id}`, `invoice-postage:${b.id}`, `invoice-postage-refund:${a.id}`],
    );
  });

  it('lists every account for the operator with filters, and nobody else', async () => {
    const owner = await customer('inv_admin', '100');
    const mine = (await apply(owner, { ...ELECTRONIC, amount: '50' })).json().data;
    const all = await call('GET', `${ADMIN}?status=applied&accountId=${owner.ctx.accountId}`, operator);
    assert.equal(all.statusCode, 200, all.body);
    assert.deepEqual(
      all.json().data.list.map((i: { id: number; userName: string }) => [i.id, i.userName]),
      [[mine.id, 'inv_admin']],
    );
    assert.equal(
      (await call('GET', `${ADMIN}?type=vat_special&accountId=${owner.ctx.accountId}`, operator)).json().data
        .total,
      0,
    );
    for (const [method, url] of [
      ['GET', ADMIN],
      ['POST', `${ADMIN}/${mine.id}/invoiced`],
      ['POST', `${ADMIN}/${mine.id}/void`],
      ['POST', `${ADMIN}/${mine.id}/reject`],
    ] as const) {
      assert.equal((await call(method, url, owner, { reason: 'x' })).statusCode, 403, url);
    }
    assert.equal((await call('POST', `${ADMIN}/999999/invoiced`, operator)).statusCode, 404);
  });

  it('keeps accounts apart and needs the finance permission', async () => {
    const owner = await customer('inv_tenant', '100');
    const other = await customer('inv_tenant_other', '100');
    const mine = (await apply(owner, { ...ELECTRONIC, amount: '10' })).json().data;
    assert.equal((await call('GET', `${BILLS}/${mine.id}`, other)).statusCode, 404);
    assert.equal((await call('POST', `${BILLS}/${mine.id}/void`, other)).statusCode, 404);
    assert.equal(
      (await call('POST', `${BILLS}/${mine.id}/resubmit`, other, { ...ELECTRONIC, amount: '1' })).statusCode,
      404,
    );
    assert.equal((await call('GET', BILLS, other)).json().data.total, 0);
    assert.equal((await summaryOf(other)).invoiceableFen, 10_000);

    const sender = await joinedMember(t, owner, 'inv_sender', {
      type: 'custom',
      levels: { [PERMISSIONS.EMAIL_SEND]: 'full' },
    });
    assert.equal((await call('GET', BILLS, sender)).statusCode, 403);
    assert.equal((await call('GET', '/v3/api/user/invoice', sender)).statusCode, 403);
    assert.equal((await apply(sender, { ...ELECTRONIC, amount: '1' })).statusCode, 403);
    const finance = await joinedMember(t, owner, 'inv_finance', {
      type: 'custom',
      levels: { [PERMISSIONS.FINANCE]: 'full' },
    });
    assert.equal((await apply(finance, { ...ELECTRONIC, amount: '1' })).statusCode, 201);
    const visitor = await joinedMember(t, owner, 'inv_visitor', { type: 'visitor' });
    assert.equal((await call('GET', BILLS, visitor)).statusCode, 200, 'a visitor may look');
    assert.equal((await apply(visitor, { ...ELECTRONIC, amount: '1' })).statusCode, 403);
  });
});
