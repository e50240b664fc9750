import { fenToYuan, LOW_BALANCE_FEN } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import { postSiteMessage } from '../site-messages/site-messages.service.ts';
import * as repo from './ledger.repo.ts';

type Level = 'low' | 'exhausted';
const SEVERITY: Record<Level, number> = { low: 1, exhausted: 2 };

/**
 * Low-balance notices (issue 18): a paid account whose balance falls under LOW_BALANCE_FEN is
 * told once ("low"), and once more when nothing is left and sending stops ("exhausted"); a
 * recharge back above the line clears it, so the next crossing is noticed again. A balance that
 * rises from exhausted to merely low is not told again. The notice is a message of the account's
 * message centre, which mails it (to the owner unless the account named notifiers) and texts it
 * as the account's message settings say. Answers how many notices were posted.
 */
export async function noticeLowBalances(database: Database, now: number): Promise<number> {
  const rows = await repo.lowBalanceCandidates(database, LOW_BALANCE_FEN);
  let sent = 0;
  for (const row of rows) {
    const accountId = Number(row.account_id);
    const balance = Number(row.balance_fen);
    const level: Level | null = balance <= 0 ? 'exhausted' : balance < LOW_BALANCE_FEN ? 'low' : null;
    const earlier = row.level as Level | null;
    if (level === null) {
      await repo.clearBalanceNotice(database, accountId);
      continue;
    }
    if (earlier !== null && SEVERITY[level] <= SEVERITY[earlier]) {
      if (level !== earlier) await repo.lowerBalanceNotice(database, accountId, level, balance);
      continue;
    }
    // Claimed before the message is posted: two workers running this at once post it once.
    if (!(await repo.claimBalanceNotice(database, accountId, earlier, level, balance, now))) continue;
    await postSiteMessage(
      database,
      accountId,
      level === 'low' ? 'balance_low' : 'balance_exhausted',
      { yuan: fenToYuan(balance), line: fenToYuan(LOW_BALANCE_FEN) },
      now,
    );
    sent++;
  }
  return sent;
}
