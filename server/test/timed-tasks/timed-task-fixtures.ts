import type { TimedTaskView } from '@herald/shared';
import { createSender, type Sender, uniqueTag } from '../fixtures/factory.ts';
import type { TestApp } from '../helpers/app.ts';
import type { SignedIn } from '../helpers/members.ts';

export const TASKS = '/v3/api/task/taskTemplates';
export type Task = TimedTaskView;

/** The console owner's account made paid, with a usable sending domain and a batch API_USER. */
export async function paidSender(t: TestApp, owner: SignedIn): Promise<Sender> {
  await t.core.database.db
    .updateTable('accounts')
    .set({ plan: 'paid' })
    .where('id', '=', owner.ctx.accountId)
    .execute();
  // Paid accounts send while their balance is above zero.
  await t.core.ledger.adjust(null, owner.ctx.accountId, { amountFen: 100_000, reason: 'test credit' });
  return createSender(t.core.database, {
    accountId: owner.ctx.accountId,
    emailType: 'batch',
    domainStatus: 'usable',
  });
}

/** An address list of members `[local part, name, code]` at `domain`; answers its id. */
export async function timedList(
  t: TestApp,
  owner: SignedIn,
  name: string,
  members: [string, string, string][],
  domain = 'inbox.test',
): Promise<number> {
  const list = await t.core.addressLists.createList(owner.ctx, {
    name,
    prefix: `${name}${uniqueTag()}`,
    description: '',
  });
  await t.core.addressLists.addMembers(
    owner.ctx,
    list.id,
    members.map(([local, memberName, code]) => ({
      address: `${local}@${domain}`,
      name: memberName,
      vars: { code },
    })),
    { upsert: false },
  );
  return list.id;
}
