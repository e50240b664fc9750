import { fenToYuan, LOW_BALANCE_FEN } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import { type SystemMailer, systemMail } from '../registration/account-mail.ts';
import { postSiteMessage } from '../site-messages/site-messages.service.ts';
import * as repo from './ledger.repo.ts';

type Level = 'low' | 'exhausted';
const SEVERITY: Record<Level, number> = { low: 1, exhausted: 2 };

/** Where the notice's link goes: the charge screen. */
const CHARGE_PATH = '/accountSetting/financialMangement/charge';

/**
 * Low-balance notices (issue 18): a paid account whose balance falls under LOW_BALANCE_FEN is
 * mailed once ("low"), and once more when nothing is left and sending stops ("exhausted"); a
 * recharge back above the line clears it, so the next crossing is noticed again. A balance that
 * rises from exhausted to merely low is not mailed again. Each notice is also posted to the
 * account's message centre. The mail goes to the account owner, in
 * Chinese and English (accounts keep no language), with the link to top up. Answers how many
 * mails were queued.
 */
export async function noticeLowBalances(
  database: Database,
  mailer: SystemMailer,
  publicUrl: string,
  now: number,
): Promise<number> {
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
    // Claimed before the mail is queued: two workers running this at once mail once.
    if (!(await repo.claimBalanceNotice(database, accountId, earlier, level, balance, now))) continue;
    await postSiteMessage(
      database,
      accountId,
      level === 'low' ? 'balance_low' : 'balance_exhausted',
      { yuan: fenToYuan(balance), line: fenToYuan(LOW_BALANCE_FEN) },
      now,
    );
    const email = await repo.ownerEmail(database, accountId);
    if (!email) continue;
    await mailer.sendEmail({
      to: email,
      ...lowBalanceMail(row.username, balance, level, `${publicUrl}${CHARGE_PATH}`),
    });
    sent++;
  }
  return sent;
}

function lowBalanceMail(userName: string, balanceFen: number, level: Level, link: string) {
  const yuan = fenToYuan(balanceFen);
  const line = fenToYuan(LOW_BALANCE_FEN);
  const zh =
    level === 'exhausted'
      ? [
          `${userName}，您好：`,
          `您的 Herald 账户余额为 ${yuan} 元，已用完，邮件和短信发送已暂停。充值后即可恢复发送。`,
        ]
      : [
          `${userName}，您好：`,
          `您的 Herald 账户余额为 ${yuan} 元，已低于 ${line} 元。余额用完后邮件和短信发送将暂停，请及时充值。`,
        ];
  const en =
    level === 'exhausted'
      ? [
          `Hello ${userName},`,
          `Your Herald balance is ${yuan} yuan: it has run out and sending mail and SMS is paused. Sending resumes once you top up.`,
        ]
      : [
          `Hello ${userName},`,
          `Your Herald balance is ${yuan} yuan, below ${line} yuan. Sending mail and SMS pauses when it runs out; top up in time.`,
        ];
  const subject =
    level === 'exhausted'
      ? 'Herald 余额已用完，发送已暂停 / Your Herald balance has run out'
      : 'Herald 余额不足提醒 / Your Herald balance is low';
  return systemMail('zh-cn', subject, [...zh, ...en], link, '充值 / Top up');
}
