import assert from 'node:assert/strict';
import type { Herald } from '@herald/test-peers';
import type { TestUser } from './accounts.ts';
import { operatorUser } from './accounts.ts';
import { withHeraldDatabase } from './database.ts';

/** The account of a test user in a running Herald. */
export async function accountIdOf(herald: Herald, user: TestUser): Promise<number> {
  return withHeraldDatabase(herald, async ({ db }) =>
    Number(
      (
        await db
          .selectFrom('users')
          .select('account_id')
          .where('username', '=', user.userName)
          .executeTakeFirstOrThrow()
      ).account_id,
    ),
  );
}

/**
 * Money on a test user's account the way an operator records a bank transfer (the /admin call):
 * a paid recharge, so the account is paid and the amount is invoiceable. Answers the account id.
 */
export async function recordTransfer(
  herald: Herald,
  user: TestUser,
  transfer: { amount: string; bankRef: string; remitter?: string },
): Promise<number> {
  const accountId = await accountIdOf(herald, user);
  const operator = await operatorUser(herald);
  const recorded = await fetch(`${herald.url}/v3/api/admin/accounts/${accountId}/offlineRecharges`, {
    method: 'POST',
    headers: { authorization: `Bearer ${operator.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ remitter: 'E2E Test Ltd', ...transfer }),
  });
  assert.equal(recorded.status, 201, await recorded.text());
  return accountId;
}
