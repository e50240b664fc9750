import assert from 'node:assert/strict';
import { generateKeyPairSync, type KeyObject, sign, verify } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type AlipayPeer, startAlipayPeer } from '../src/alipay-gateway.ts';

/** The signing rule of §1.3, written again here so the test checks the peer, not itself. */
const join = (params: Record<string, string>) =>
  Object.keys(params)
    .filter((name) => params[name] !== '')
    .sort()
    .map((name) => `${name}=${params[name]}`)
    .join('&');

const beijingNow = () => new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');

describe('alipay-gateway', () => {
  const app = generateKeyPairSync('rsa', { modulusLength: 2048 });
  let peer: AlipayPeer;
  let herald: Server;
  let notifyUrl: string;
  const received: { contentType: string; body: string }[] = [];
  let replyText = 'success';

  const signed = (
    params: Record<string, string>,
    key: KeyObject = app.privateKey,
  ): Record<string, string> => ({
    ...params,
    sign: sign('sha256', Buffer.from(join(params)), key).toString('base64'),
  });
  const request = (method: string, biz: Record<string, string>, extra: Record<string, string> = {}) => ({
    app_id: peer.appId,
    method,
    format: 'JSON',
    charset: 'utf-8',
    sign_type: 'RSA2',
    timestamp: beijingNow(),
    version: '1.0',
    ...extra,
    biz_content: JSON.stringify(biz),
  });
  const order = (outTradeNo: string, amount = '99.00') =>
    request(
      'alipay.trade.page.pay',
      {
        out_trade_no: outTradeNo,
        product_code: 'FAST_INSTANT_TRADE_PAY',
        total_amount: amount,
        subject: '充值 Herald',
      },
      { notify_url: notifyUrl, return_url: 'http://shop.test/recharge/return?x=1' },
    );
  const open = (params: Record<string, string>) => fetch(`${peer.gateway}?${new URLSearchParams(params)}`);
  const query = async (params: Record<string, string>) => {
    const res = await fetch(peer.gateway, { method: 'POST', body: new URLSearchParams(params) });
    return res.text();
  };
  /** The response object's exact text and its signature, found by hand in the body. */
  const split = (text: string, key: string) => {
    const match = new RegExp(`^\\{"${key}":(\\{.*\\}),"sign":"([^"]+)"\\}$`).exec(text);
    assert.ok(match, text);
    return { raw: match[1]!, sign: match[2]! };
  };
  const verifiesWithPeer = (content: string, signature: string) =>
    verify('sha256', Buffer.from(content), peer.alipayPublicKey, Buffer.from(signature, 'base64'));

  before(async () => {
    peer = await startAlipayPeer({
      appPublicKey: app.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    });
    herald = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({
          contentType: req.headers['content-type'] ?? '',
          body: Buffer.concat(chunks).toString('utf8'),
        });
        res.end(replyText);
      });
    });
    await new Promise<void>((resolve) => herald.listen(0, '127.0.0.1', resolve));
    notifyUrl = `http://127.0.0.1:${(herald.address() as AddressInfo).port}/notify/alipay`;
  });
  after(async () => {
    await peer.close();
    await new Promise<void>((resolve) => herald.close(() => resolve()));
  });

  it('refuses a page.pay signed with another key, or changed after signing', async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const wrongKey = await open(signed(order('R_BAD_1'), other));
    assert.equal(wrongKey.status, 200);
    assert.match(await wrongKey.text(), /isv\.invalid-signature/);

    const tampered = signed(order('R_BAD_2'));
    tampered.biz_content = tampered.biz_content!.replace('99.00', '0.01');
    assert.match(await (await open(tampered)).text(), /isv\.invalid-signature/);

    assert.equal(peer.refused.length, 2);
    assert.equal(peer.refused[0]?.method, 'alipay.trade.page.pay');
    assert.equal(peer.trades.size, 0);
  });

  it('refuses bad business parameters with their sub_code', async () => {
    const wrongProduct = request('alipay.trade.page.pay', {
      out_trade_no: 'R_BAD_3',
      product_code: 'QUICK_MSECURITY_PAY',
      total_amount: '1.00',
      subject: 's',
    });
    assert.match(await (await open(signed(wrongProduct))).text(), /isv\.invalid-product-code/);
    assert.match(await (await open(signed(order('R_BAD_4', '9.9')))).text(), /isv\.invalid-total-amount/);
    assert.match(await (await open(signed(order('R_BAD_5', '0.00')))).text(), /isv\.invalid-total-amount/);
    const otherApp = { ...order('R_BAD_6'), app_id: '2021999999999999' };
    assert.match(await (await open(signed(otherApp))).text(), /isv\.invalid-app-id/);
    assert.equal(peer.trades.size, 0);
  });

  it('renders the cashier for a good page.pay, by GET or POST, and keeps one trade per order', async () => {
    const res = await open(signed(order('R_1001')));
    const html = await res.text();
    assert.match(html, /<title>Alipay test cashier<\/title>/);
    assert.match(html, /充值 Herald/);
    assert.match(html, /¥99\.00/);
    assert.match(html, /<form method="post" action="\/cashier\/pay">/);
    assert.match(html, /name="out_trade_no" value="R_1001"/);
    assert.match(html, /<button type="submit">Pay<\/button>/);
    const trade = peer.trades.get('R_1001');
    assert.equal(trade?.status, 'WAIT_BUYER_PAY');
    assert.match(trade?.tradeNo ?? '', /^\d{28}$/);

    const posted = await fetch(peer.gateway, {
      method: 'POST',
      body: new URLSearchParams(signed(order('R_1001'))),
    });
    assert.match(await posted.text(), /Alipay test cashier/);
    assert.equal(peer.trades.get('R_1001')?.tradeNo, trade?.tradeNo);
    const otherAmount = await open(signed(order('R_1001', '1.00')));
    assert.match(await otherAmount.text(), /ACQ\.CONTEXT_INCONSISTENT/);
  });

  it('Pay posts a V1-signed notify to notify_url, then sends the browser to a signed return_url', async () => {
    await open(signed(order('R_1002', '12.34')));
    const before = received.length;
    const res = await fetch(`${peer.gateway.replace('/gateway.do', '')}/cashier/pay`, {
      method: 'POST',
      body: new URLSearchParams({ out_trade_no: 'R_1002' }),
      redirect: 'manual',
    });
    assert.equal(res.status, 302);
    assert.equal(received.length, before + 1);
    const notify = received.at(-1)!;
    assert.match(notify.contentType, /^application\/x-www-form-urlencoded/);
    const fields = Object.fromEntries(new URLSearchParams(notify.body));
    const trade = peer.trades.get('R_1002')!;
    assert.equal(trade.status, 'TRADE_SUCCESS');
    assert.equal(fields.trade_status, 'TRADE_SUCCESS');
    assert.equal(fields.out_trade_no, 'R_1002');
    assert.equal(fields.trade_no, trade.tradeNo);
    assert.equal(fields.total_amount, '12.34');
    assert.equal(fields.seller_id, peer.sellerId);
    assert.equal(fields.app_id, peer.appId);
    assert.equal(fields.notify_type, 'trade_status_sync');
    assert.equal(fields.sign_type, 'RSA2');
    assert.equal(fields.subject, '充值 Herald');
    assert.match(fields.buyer_id ?? '', /^2088\d{12}$/);
    assert.deepEqual(JSON.parse(fields.fund_bill_list ?? ''), [
      { amount: '12.34', fundChannel: 'ALIPAYACCOUNT' },
    ]);
    const { sign: signature, sign_type: _type, ...content } = fields;
    assert.ok(verifiesWithPeer(join(content), signature!));
    assert.ok(!verifiesWithPeer(join({ ...content, total_amount: '1234.00' }), signature!));
    assert.deepEqual(peer.notifications.at(-1)?.reply, 'success');

    const back = new URL(res.headers.get('location')!);
    assert.equal(`${back.origin}${back.pathname}`, 'http://shop.test/recharge/return');
    const returned = Object.fromEntries(back.searchParams);
    assert.equal(returned.x, '1');
    assert.equal(returned.method, 'alipay.trade.page.pay.return');
    assert.equal(returned.trade_no, trade.tradeNo);
    const { sign: returnSign, sign_type: _t, x: _x, ...returnContent } = returned;
    assert.ok(verifiesWithPeer(join(returnContent), returnSign!));
  });

  it('pay() and notify() resend the notify; forged ones do not verify', async () => {
    await open(signed(order('R_1003')));
    await peer.pay('R_1003', { notify: false });
    assert.equal(peer.trades.get('R_1003')?.status, 'TRADE_SUCCESS');
    assert.ok(!peer.notifications.some((n) => n.fields.out_trade_no === 'R_1003'));

    replyText = 'fail';
    assert.equal(await peer.notify('R_1003'), 'fail');
    replyText = 'success';
    assert.equal(await peer.notify('R_1003'), 'success');
    const sent = peer.notifications.filter((n) => n.fields.out_trade_no === 'R_1003');
    assert.deepEqual(
      sent.map((n) => n.reply),
      ['fail', 'success'],
    );
    assert.equal(sent[0]?.fields.notify_id, sent[1]?.fields.notify_id);

    const check = (fields: Record<string, string>) => {
      const { sign: signature, sign_type: _type, ...content } = fields;
      return verifiesWithPeer(join(content), signature!);
    };
    await peer.notify('R_1003', { total_amount: '0.01' });
    assert.ok(!check(peer.notifications.at(-1)!.fields));
    await peer.notify('R_1003', { total_amount: '0.01' }, { resign: true });
    assert.ok(check(peer.notifications.at(-1)!.fields));
    assert.equal(peer.notifications.at(-1)!.fields.total_amount, '0.01');
    await peer.forgedNotify('R_1003');
    assert.ok(!check(peer.notifications.at(-1)!.fields));
  });

  it('answers trade.query signed over the exact response text, and refuses a bad signature', async () => {
    await open(signed(order('R_1004', '5.00')));
    const waiting = split(
      await query(signed(request('alipay.trade.query', { out_trade_no: 'R_1004' }))),
      'alipay_trade_query_response',
    );
    assert.ok(verifiesWithPeer(waiting.raw, waiting.sign));
    assert.equal(JSON.parse(waiting.raw).trade_status, 'WAIT_BUYER_PAY');

    await peer.pay('R_1004', { notify: false });
    const paid = split(
      await query(signed(request('alipay.trade.query', { trade_no: peer.trades.get('R_1004')!.tradeNo }))),
      'alipay_trade_query_response',
    );
    assert.ok(verifiesWithPeer(paid.raw, paid.sign));
    const answer = JSON.parse(paid.raw);
    assert.equal(answer.code, '10000');
    assert.equal(answer.out_trade_no, 'R_1004');
    assert.equal(answer.trade_status, 'TRADE_SUCCESS');
    assert.equal(answer.total_amount, '5.00');

    const missing = split(
      await query(signed(request('alipay.trade.query', { out_trade_no: 'R_NONE' }))),
      'alipay_trade_query_response',
    );
    assert.ok(verifiesWithPeer(missing.raw, missing.sign));
    assert.equal(JSON.parse(missing.raw).sub_code, 'ACQ.TRADE_NOT_EXIST');

    const refusedBefore = peer.refused.length;
    const forged = { ...signed(request('alipay.trade.query', { out_trade_no: 'R_1004' })), version: '2.0' };
    const error = split(await query(forged), 'error_response');
    assert.ok(verifiesWithPeer(error.raw, error.sign));
    assert.equal(JSON.parse(error.raw).sub_code, 'isv.invalid-signature');
    assert.deepEqual(peer.refused.slice(refusedBefore), [
      { method: 'alipay.trade.query', reason: 'signature does not verify with the app public key' },
    ]);
  });

  it('resends an unanswered notify on its retry schedule until the reply is success', async () => {
    const retrying = await startAlipayPeer({
      appPublicKey: app.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      retryDelaysMs: [20, 20, 20],
    });
    try {
      await fetch(
        `${retrying.gateway}?${new URLSearchParams(signed({ ...order('R_2001'), app_id: retrying.appId }))}`,
      );
      replyText = 'fail';
      await retrying.pay('R_2001');
      await new Promise((resolve) => setTimeout(resolve, 30));
      replyText = 'success';
      await new Promise((resolve) => setTimeout(resolve, 150));
      const replies = retrying.notifications.map((n) => n.reply);
      assert.ok(replies.length >= 2 && replies.length <= 4, String(replies));
      assert.equal(replies.at(-1), 'success');
      assert.ok(replies.slice(0, -1).every((reply) => reply === 'fail'));
    } finally {
      replyText = 'success';
      await retrying.close();
    }
  });
});
