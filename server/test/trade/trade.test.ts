import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addDays, addMonths, PERMISSIONS, statDay, statDayStart } from '@herald/shared';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { testDialect } from '../helpers/database.ts';
import { createOwner, joinedMember, type SignedIn } from '../helpers/members.ts';
import { api } from '../templates/template-helpers.ts';

/**
 * Trade records, real-time consumption, receipts and bills (issue 18) as views of the ledger: an
 * account with an offline recharge, an adjustment and charges that charging by result made from
 * mail outcomes on both sides of a Beijing month boundary. The rows and the balance after each,
 * the bill's month grouping, the CSV exports in both languages, tenancy and permissions.
 */
describe(`trade records and bills on ${testDialect}`, () => {
  let t: TestApp;
  let call: ReturnType<typeof api>;
  let owner: SignedIn;
  let eventId = 0;
  const thisMonthFirst = `${statDay(Date.now()).slice(0, 7)}-01`;
  const thisMonth = thisMonthFirst.slice(0, 7);
  const lastMonth = addMonths(thisMonthFirst, -1).slice(0, 7);
  const boundary = statDayStart(thisMonthFirst);

  const mailEvents = async (accountId: number, count: number, at: number) => {
    const rows = Array.from({ length: count }, () => {
      eventId += 1;
      return {
        account_id: accountId,
        kind: 'deliver' as const,
        at,
        message_id: 1,
        recipient_id: eventId,
        email_id: `trade${eventId}`,
        recipient: `r${eventId}@example.org`,
        recipient_domain: 'example.org',
        api_user_id: null,
        label_id: null,
        sub_status: null,
        reason: null,
        latency_ms: null,
        data: null,
      };
    });
    for (let i = 0; i < rows.length; i += 500) {
      await t.core.database.db
        .insertInto('mail_events')
        .values(rows.slice(i, i + 500))
        .execute();
    }
  };
  const charge = async () => {
    while ((await t.core.ledger.chargeMail(10_000)) > 0) {}
  };

  before(async () => {
    t = await buildTestApp();
    call = api(t);
    owner = await createOwner(t, 'trade_owner');
    const id = owner.ctx.accountId;
    await t.core.recharges.recordOffline(null, id, { amount: '2000', remitter: '张三', bankRef: 'TRADE-1' });
    await t.core.ledger.adjust(null, id, { amountFen: -500, reason: 'goodwill correction' });
    // 1,500 mails delivered at 23:30 Beijing on the last day of last month, 2,500 at 00:30 on the
    // 1st: email is 100 fen per 1,000, so 150 fen billed to last month and 250 to this one.
    await mailEvents(id, 1500, boundary - 30 * 60_000);
    await mailEvents(id, 2500, boundary + 30 * 60_000);
    await charge();
  });
  after(async () => {
    await t.close();
  });

  it('lists the entries newest first with the balance after each', async () => {
    const res = await call('GET', '/v3/api/trade/records', owner);
    assert.equal(res.statusCode, 200, res.body);
    const page = res.json().data;
    assert.equal(page.total, 4);
    assert.equal(page.balanceFen, 199_100);
    assert.deepEqual(
      page.list.map((r: { kind: string; amountFen: number; balanceAfterFen: number }) => [
        r.kind,
        r.amountFen,
        r.balanceAfterFen,
      ]),
      [
        ['charge', -250, 199_100],
        ['charge', -150, 199_350],
        ['adjustment', -500, 199_500],
        ['recharge', 200_000, 200_000],
      ],
    );
    assert.equal(page.list[0].code, 'email');
    assert.equal(page.list[0].day, thisMonthFirst);
    assert.equal(page.list[0].units, 2500);
    assert.equal(page.list[1].day, addDays(thisMonthFirst, -1));
    assert.equal(page.list[3].orderNo, 'OFFTRADE_1');

    // Filtered out entries still count in the balance after the ones shown.
    const recharges = (await call('GET', '/v3/api/trade/records?kind=recharge', owner)).json().data;
    assert.equal(recharges.total, 1);
    assert.equal(recharges.list[0].balanceAfterFen, 200_000);
    const paged = (await call('GET', '/v3/api/trade/records?pageSize=2&pageNum=2', owner)).json().data;
    assert.deepEqual(
      paged.list.map((r: { balanceAfterFen: number }) => r.balanceAfterFen),
      [199_500, 200_000],
    );
    const yesterday = addDays(statDay(Date.now()), -1);
    const none = await call(
      'GET',
      `/v3/api/trade/records?from=${addDays(yesterday, -5)}&to=${yesterday}`,
      owner,
    );
    assert.equal(none.json().data.total, 0);
  });

  it('refuses ranges older than 3 years, longer than a year or in the future', async () => {
    const today = statDay(Date.now());
    const tooOld = await call(
      'GET',
      `/v3/api/trade/records?from=${addMonths(today, -37)}&to=${addMonths(today, -36)}`,
      owner,
    );
    assert.equal(tooOld.statusCode, 400);
    assert.match(tooOld.body, /3 years/);
    const tooLong = await call(
      'GET',
      `/v3/api/trade/records?from=${addMonths(today, -13)}&to=${today}`,
      owner,
    );
    assert.equal(tooLong.statusCode, 400);
    assert.match(tooLong.body, /1 year/);
    const future = await call(
      'GET',
      `/v3/api/trade/records?to=${addDays(today, 1)}`,
      owner,
      undefined,
      'zh-cn',
    );
    assert.equal(future.statusCode, 400);
    assert.match(future.body, /结束日期不能晚于今天/);
    assert.equal((await call('GET', '/v3/api/trade/records?kind=gift', owner)).statusCode, 400);
  });

  it('exports the filtered rows as CSV with a BOM, headed in the caller language', async () => {
    const zh = await call('GET', '/v3/api/trade/records/export', owner, undefined, 'zh-cn');
    assert.equal(zh.statusCode, 200);
    assert.match(String(zh.headers['content-type']), /text\/csv; charset=utf-8/);
    assert.match(String(zh.headers['content-disposition']), /attachment; filename="trade-.*\.csv"/);
    const lines = zh.body.split('\r\n');
    assert.equal(lines[0], '\uFEFF交易时间,类型,金额(元),余额(元),产品,计费日期,数量,订单号,说明');
    assert.equal(lines.length, 6);
    assert.match(
      lines[1] as string,
      /,消费,-2\.50,1991\.00,"邮件\(送达、软退信、无效地址\), 每千封",\d{4}-\d{2}-01,2500,,email /,
    );
    assert.match(lines[3] as string, /,调账,-5\.00,1995\.00,,,,,goodwill correction$/);
    assert.match(lines[4] as string, /,充值,2000\.00,2000\.00,,,,OFFTRADE_1,Bank transfer$/);

    const en = await call('GET', '/v3/api/trade/records/export?kind=charge', owner, undefined, 'en');
    const enLines = en.body.split('\r\n');
    assert.equal(
      enLines[0],
      '\uFEFFTime,Type,Amount (yuan),Balance (yuan),Product,Billing day,Units,Order,Note',
    );
    assert.equal(enLines.length, 4);
    assert.match(
      enLines[2] as string,
      /,Charge,-1\.50,1993\.50,"Email \(delivered, soft bounce, invalid\), per 1,000",/,
    );
  });

  it('bills charges in the Beijing month of their day, with opening and closing balances', async () => {
    const months = (await call('GET', '/v3/api/bill/months', owner)).json().data;
    assert.equal(months.length, 36);
    assert.equal(months[0], thisMonth);
    assert.equal(months[1], lastMonth);

    const last = (await call('GET', `/v3/api/bill?month=${lastMonth}`, owner)).json().data;
    assert.deepEqual(last, {
      month: lastMonth,
      openingFen: 0,
      closingFen: -150,
      chargedFen: 150,
      rechargedFen: 0,
      adjustedFen: 0,
      otherFen: 0,
      products: [{ code: 'email', units: 1500, amountFen: 150 }],
    });
    const current = (await call('GET', '/v3/api/bill', owner)).json().data;
    assert.deepEqual(current, {
      month: thisMonth,
      openingFen: -150,
      closingFen: 199_100,
      chargedFen: 250,
      rechargedFen: 200_000,
      adjustedFen: -500,
      otherFen: 0,
      products: [{ code: 'email', units: 2500, amountFen: 250 }],
    });
    const old = (await call('GET', `/v3/api/bill?month=${months[35]}`, owner)).json().data;
    assert.equal(old.closingFen, 0);
    const tooOld = await call(
      'GET',
      `/v3/api/bill?month=${addMonths(thisMonthFirst, -36).slice(0, 7)}`,
      owner,
    );
    assert.equal(tooOld.statusCode, 400);
    assert.match(tooOld.body, /36 months/);

    const en = await call('GET', `/v3/api/bill/export?month=${thisMonth}`, owner, undefined, 'en');
    assert.equal(en.statusCode, 200);
    assert.match(String(en.headers['content-disposition']), new RegExp(`bill-${thisMonth}\\.csv`));
    assert.deepEqual(en.body.split('\r\n'), [
      '\uFEFFMonth,Item,Units,Amount (yuan)',
      `${thisMonth},Opening balance,,-1.50`,
      `${thisMonth},"Email (delivered, soft bounce, invalid), per 1,000",2500,2.50`,
      `${thisMonth},Charges,,2.50`,
      `${thisMonth},Recharges,,2000.00`,
      `${thisMonth},Adjustments,,-5.00`,
      `${thisMonth},Refunds and vouchers,,0.00`,
      `${thisMonth},Closing balance,,1991.00`,
      '',
    ]);
    const zh = await call('GET', `/v3/api/bill/export?month=${lastMonth}`, owner, undefined, 'zh-cn');
    const zhLines = zh.body.split('\r\n');
    assert.equal(zhLines[0], '\uFEFF月份,项目,数量,金额(元)');
    assert.equal(zhLines[2], `${lastMonth},"邮件(送达、软退信、无效地址), 每千封",1500,1.50`);
    assert.equal(zhLines[7], `${lastMonth},期末余额,,-1.50`);
  });

  it('shows receipts of paid recharges with the amount in capital numerals', async () => {
    const list = (await call('GET', '/v3/api/trade/receipts', owner)).json().data;
    assert.equal(list.total, 1);
    assert.equal(list.list[0].orderNo, 'OFFTRADE_1');
    const one = await call('GET', '/v3/api/trade/receipts/OFFTRADE_1', owner);
    assert.equal(one.statusCode, 200);
    const receipt = one.json().data;
    assert.equal(receipt.account, 'trade_owner');
    assert.equal(receipt.amountFen, 200_000);
    assert.equal(receipt.amountCapital, '贰仟元整');
    assert.equal(receipt.channel, 'offline');
    assert.equal((await call('GET', '/v3/api/trade/receipts/NOPE', owner)).statusCode, 404);
  });

  it("counts today's and yesterday's usage per price item", async () => {
    const other = await createOwner(t, 'trade_usage');
    await t.core.recharges.recordOffline(null, other.ctx.accountId, {
      amount: '100',
      remitter: 'Usage Ltd',
      bankRef: 'TRADE-2',
    });
    const now = Date.now();
    await mailEvents(other.ctx.accountId, 1234, now);
    await mailEvents(other.ctx.accountId, 10, statDayStart(addDays(statDay(now), -1)) + 3600_000);
    await charge();
    const res = await call('GET', '/v3/api/trade/consumption', other);
    assert.equal(res.statusCode, 200, res.body);
    const view = res.json().data;
    assert.equal(view.today.day, statDay(now));
    assert.deepEqual(view.today.items, [
      { code: 'email', units: 1234, accruedFen: 124, chargedFen: 124, priceFen: 100, priceUnit: 1000 },
    ]);
    assert.equal(view.yesterday.items[0].units, 10);
    assert.equal(view.yesterday.chargedFen, 1);
    assert.equal(view.balanceFen, 10_000 - 125);
  });

  it("keeps each account's views to itself and checks TRADE and BILL", async () => {
    const stranger = await createOwner(t, 'trade_stranger');
    const records = (await call('GET', '/v3/api/trade/records', stranger)).json().data;
    assert.deepEqual(records, { list: [], total: 0, balanceFen: 0 });
    assert.equal((await call('GET', '/v3/api/trade/receipts/OFFTRADE_1', stranger)).statusCode, 404);
    assert.equal((await call('GET', '/v3/api/trade/receipts', stranger)).json().data.total, 0);
    const bill = (await call('GET', '/v3/api/bill', stranger)).json().data;
    assert.equal(bill.closingFen, 0);
    assert.deepEqual(bill.products, []);

    const trader = await joinedMember(t, owner, 'trade_trader', {
      type: 'custom',
      levels: { [PERMISSIONS.TRADE]: 'full' },
    });
    assert.equal((await call('GET', '/v3/api/trade/records', trader)).statusCode, 200);
    assert.equal((await call('GET', '/v3/api/bill', trader)).statusCode, 403);
    assert.equal((await call('GET', '/v3/api/bill/export', trader)).statusCode, 403);
    const biller = await joinedMember(t, owner, 'trade_biller', {
      type: 'custom',
      levels: { [PERMISSIONS.BILL]: 'full' },
    });
    assert.equal((await call('GET', '/v3/api/bill', biller)).statusCode, 200);
    assert.equal((await call('GET', '/v3/api/trade/records', biller)).statusCode, 403);
    assert.equal((await call('GET', '/v3/api/trade/records/export', biller)).statusCode, 403);
    assert.equal((await call('GET', '/v3/api/trade/consumption', biller)).statusCode, 403);
    assert.equal((await call('GET', '/v3/api/trade/receipts/OFFTRADE_1', biller)).statusCode, 403);
  });
});
