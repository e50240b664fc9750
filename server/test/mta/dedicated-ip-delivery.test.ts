import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type PipelineHarness, startPipeline } from './pipeline-harness.ts';

/**
 * Dedicated IPs in the MTA (issue 18): once an account has bought a dedicated address for its
 * sending domain, its mail leaves from that address (the loopback MX sees the connection come
 * from 127.0.0.2), and every deliver event carries outIp, the address the mail left from; another
 * account's mail still leaves from the system's address.
 */
describe('delivery from dedicated IPs', () => {
  let h: PipelineHarness;
  before(async () => {
    h = await startPipeline();
  });
  after(() => h?.close());

  const outIpOf = async (emailId: string) => {
    const event = await h.t.core.database.db
      .selectFrom('mail_events')
      .select('data')
      .where('email_id', '=', emailId)
      .where('kind', '=', 'deliver')
      .executeTakeFirstOrThrow();
    return (JSON.parse(event.data ?? '{}') as { outIp?: string }).outIp;
  };
  const arrivedFrom = (recipient: string) =>
    h.mx.messages.find((m) => m.rcptTo.includes(recipient))?.remoteAddress.replace(/^::ffff:/, '');

  it('sends from the system address until the account has a dedicated one, then from it', async () => {
    const { accountId, domainId } = h.sender;
    const [before] = await h.send({ to: 'before@dest.test', subject: 'shared', plain: 'p' });
    await h.waitForStatus(before as string, 'delivered');
    assert.equal(arrivedFrom('before@dest.test'), '127.0.0.1');
    assert.equal(await outIpOf(before as string), '127.0.0.1');

    await h.t.core.database.db
      .updateTable('accounts')
      .set({ plan: 'paid' })
      .where('id', '=', accountId)
      .execute();
    await h.t.core.ledger.adjust(null, accountId, { amountFen: 100_000, reason: 'test credit' });
    await h.t.core.dedicatedIps.addToPool('127.0.0.2');
    const [bought] = await h.t.core.dedicatedIps.purchase(
      { accountId, userId: 1 },
      { domainId, count: 1, months: 12 },
    );
    assert.equal(bought?.address, '127.0.0.2');

    const other = await h.addSender();
    const [mine] = await h.send({ to: 'dedicated@dest.test', subject: 'dedicated', plain: 'p' });
    const [theirs] = await h.send(
      { from: `news@${other.domain}`, to: 'theirs@dest.test', subject: 'shared', plain: 'p' },
      other.caller,
    );
    await h.waitForStatus(mine as string, 'delivered');
    await h.waitForStatus(theirs as string, 'delivered');
    assert.equal(arrivedFrom('dedicated@dest.test'), '127.0.0.2');
    assert.equal(await outIpOf(mine as string), '127.0.0.2');
    assert.equal(arrivedFrom('theirs@dest.test'), '127.0.0.1', "another account's mail is not sent from it");
  });
});
