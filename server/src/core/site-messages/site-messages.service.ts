import {
  AppError,
  beijingDay,
  type Lang,
  MESSAGE_NOTIFIERS_MAX,
  MESSAGE_SETTING_DEFAULTS,
  type MessageNotifierView,
  type MessageSettingsView,
  messageNotifierSchema,
  messageSettingSchema,
  NOTICE_SMS_MONTHLY_LIMIT,
  SITE_MESSAGE_CATEGORIES,
  SITE_MESSAGE_KINDS,
  type SiteMessageCategory,
  type SiteMessageKindName,
  type SiteMessageParams,
  type SiteMessagesPage,
  type SiteMessageView,
  siteMessagesQuerySchema,
  siteMessagesReadSchema,
  siteMessageText,
} from '@herald/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import type { Logger } from '../../logger.ts';
import type { Caller } from '../context.ts';
import { pricesIn } from '../ledger/charging.repo.ts';
import { fundsOf, ownerEmail, postEntry } from '../ledger/ledger.repo.ts';
import { systemMail } from '../registration/account-mail.ts';
import * as repo from './site-messages.repo.ts';

/** How the notices leave: Herald's own system mail and SMS (core/notifications). */
export interface NoticeSender {
  sendEmail(mail: { to: string; subject: string; text: string; html?: string }): Promise<unknown>;
  sendSms(sms: { to: string; text: string }): Promise<unknown>;
  /** False when no system SMS carrier is configured: SMS notices are then skipped. */
  readonly smsConfigured: boolean;
}

export interface SiteMessagesDeps {
  database: Database;
  sender: NoticeSender;
  /** The console's public address, for the links in mailed notices. */
  publicUrl: string;
  logger: Logger;
  now?: () => number;
}

/**
 * Posts a message to an account's message centre. Called by the services whose events the
 * account should hear of (reviews decided, the balance running low), after their own change has
 * committed: a message is news of a change, never part of it.
 */
export async function postSiteMessage(
  database: Database,
  accountId: number,
  kind: SiteMessageKindName,
  params: SiteMessageParams,
  now: number = Date.now(),
): Promise<void> {
  await repo.insertMessage(database, {
    account_id: accountId,
    kind,
    category: SITE_MESSAGE_KINDS[kind].category,
    params: JSON.stringify(params),
    created_at: now,
  });
}

/**
 * The message centre as its account reads it (console `accountSetting/messageCenter`, code 7):
 * its messages worded in the reader's language, the unread count of the header badge, and
 * marking messages read; its settings (`messageCenter/setMessage`): which categories are also
 * mailed and texted, and to whom; and the notice task that does the mailing and texting. Every
 * call is scoped to the caller's account: another account's ids are not found.
 */
export class SiteMessagesService {
  private readonly database: Database;
  private readonly sender: NoticeSender;
  private readonly publicUrl: string;
  private readonly log: Logger;
  private readonly now: () => number;

  constructor(deps: SiteMessagesDeps) {
    this.database = deps.database;
    this.sender = deps.sender;
    this.publicUrl = deps.publicUrl.replace(/\/$/, '');
    this.log = deps.logger.child({ component: 'site-messages' });
    this.now = deps.now ?? Date.now;
  }

  async list({ accountId }: Caller, query: unknown, lang: Lang): Promise<SiteMessagesPage> {
    const { pageNum, pageSize, unread, category } = siteMessagesQuerySchema.parse(query ?? {});
    const [{ rows, total }, totalCount] = await Promise.all([
      repo.listMessages(this.database, {
        accountId,
        unread,
        category,
        offset: (pageNum - 1) * pageSize,
        limit: pageSize,
      }),
      repo.countUnread(this.database, accountId),
    ]);
    return { list: rows.flatMap((row) => view(row, lang) ?? []), total, totalCount };
  }

  unreadCount({ accountId }: Caller): Promise<number> {
    return repo.countUnread(this.database, accountId);
  }

  /** Marks messages read; answers the unread count left. */
  async markRead({ accountId }: Caller, input: unknown): Promise<number> {
    const parsed = siteMessagesReadSchema.parse(input ?? {});
    await repo.markRead(this.database, accountId, 'ids' in parsed ? parsed.ids : undefined, this.now());
    return repo.countUnread(this.database, accountId);
  }

  async settings({ accountId }: Caller): Promise<MessageSettingsView> {
    const [saved, notifiers, owner, paid, smsThisMonth, smsPriceFen] = await Promise.all([
      this.settingsOf(accountId),
      repo.listNotifiers(this.database, accountId),
      ownerEmail(this.database, accountId),
      this.isPaid(accountId),
      repo.noticeSmsCount(this.database.db, accountId, monthOf(this.now())),
      noticeSmsPriceFen(this.database.db),
    ]);
    return {
      settings: SITE_MESSAGE_CATEGORIES.map((category) => ({ category, site: true, ...saved[category] })),
      notifiers: notifiers.map(notifierView),
      ownerEmail: owner,
      paid,
      smsThisMonth,
      smsMonthlyLimit: NOTICE_SMS_MONTHLY_LIMIT,
      smsPriceFen,
    };
  }

  /** Turns a category's mail and SMS notices on or off. */
  async saveSetting(caller: Caller, input: unknown): Promise<MessageSettingsView> {
    const setting = messageSettingSchema.parse(input ?? {});
    const { accountId } = caller;
    if (setting.sms) {
      if (!(await this.isPaid(accountId))) throw new AppError('MESSAGE_SMS_PAID_ONLY');
      const phones = (await repo.listNotifiers(this.database, accountId)).filter((n) => n.kind === 'phone');
      if (phones.length === 0) throw new AppError('MESSAGE_NOTIFIER_REQUIRED');
    }
    await repo.saveSetting(this.database, accountId, setting, this.now());
    return this.settings(caller);
  }

  async addNotifier(caller: Caller, input: unknown): Promise<MessageSettingsView> {
    const notifier = messageNotifierSchema.parse(input ?? {});
    const { accountId } = caller;
    const address = notifier.kind === 'email' ? notifier.address.toLowerCase() : notifier.address;
    const current = await repo.listNotifiers(this.database, accountId);
    if (current.filter((n) => n.kind === notifier.kind).length >= MESSAGE_NOTIFIERS_MAX) {
      throw new AppError('MESSAGE_NOTIFIER_LIMIT', { max: MESSAGE_NOTIFIERS_MAX });
    }
    const added = await repo.insertNotifier(this.database, {
      account_id: accountId,
      kind: notifier.kind,
      address,
      created_at: this.now(),
    });
    if (!added) throw new AppError('MESSAGE_NOTIFIER_DUPLICATE', { address });
    return this.settings(caller);
  }

  /** Removes a notifier; the last phone stays while a category is texted. */
  async removeNotifier(caller: Caller, id: number): Promise<MessageSettingsView> {
    const { accountId } = caller;
    const current = await repo.listNotifiers(this.database, accountId);
    const target = current.find((n) => Number(n.id) === id);
    if (!target) throw new AppError('MESSAGE_NOTIFIER_NOT_FOUND');
    if (target.kind === 'phone' && current.filter((n) => n.kind === 'phone').length === 1) {
      const texted = Object.values(await this.settingsOf(accountId)).some((s) => s.sms);
      if (texted) throw new AppError('MESSAGE_NOTIFIER_REQUIRED');
    }
    await repo.deleteNotifier(this.database, accountId, id);
    return this.settings(caller);
  }

  /**
   * The notice task: mails and texts the messages posted since its last run, as each account's
   * settings say. A message is claimed before anything is sent, so two workers never notice it
   * twice. Mail goes to the email notifiers, or the owner when there are none, in both languages
   * (accounts keep no language). SMS goes to the phone notifiers of paid accounts, at most
   * NOTICE_SMS_MONTHLY_LIMIT a Beijing month; each is recorded and charged at the
   * `sms_notification` price in one transaction before it is queued. Answers how many notices
   * were queued.
   */
  async notifyPending(limit = 200): Promise<number> {
    let queued = 0;
    for (const row of await repo.messagesToNotify(this.database, limit)) {
      const now = this.now();
      if (!(await repo.claimToNotify(this.database, Number(row.id), now))) continue;
      if (!(row.kind in SITE_MESSAGE_KINDS)) continue;
      const accountId = Number(row.account_id);
      const kind = row.kind as SiteMessageKindName;
      const setting = (await this.settingsOf(accountId))[SITE_MESSAGE_KINDS[kind].category];
      const params = JSON.parse(row.params) as SiteMessageParams;
      const notifiers = await repo.listNotifiers(this.database, accountId);
      if (setting.email) queued += await this.mail(accountId, kind, params, notifiers);
      if (setting.sms) queued += await this.text(Number(row.id), accountId, kind, params, notifiers, now);
    }
    return queued;
  }

  private async mail(
    accountId: number,
    kind: SiteMessageKindName,
    params: SiteMessageParams,
    notifiers: repo.NotifierRow[],
  ): Promise<number> {
    const listed = notifiers.filter((n) => n.kind === 'email').map((n) => n.address);
    const owner = listed.length > 0 ? null : await ownerEmail(this.database, accountId);
    const to = owner ? [owner] : listed;
    const zh = siteMessageText(kind, params, 'zh-cn');
    const en = siteMessageText(kind, params, 'en');
    const mail = systemMail(
      'zh-cn',
      `${zh.title} / ${en.title}`,
      [zh.content, en.content],
      `${this.publicUrl}${SITE_MESSAGE_KINDS[kind].link}`,
      '查看 / View',
    );
    for (const address of to) await this.sender.sendEmail({ to: address, ...mail });
    return to.length;
  }

  private async text(
    messageId: number,
    accountId: number,
    kind: SiteMessageKindName,
    params: SiteMessageParams,
    notifiers: repo.NotifierRow[],
    now: number,
  ): Promise<number> {
    const phones = notifiers.filter((n) => n.kind === 'phone').map((n) => n.address);
    if (phones.length === 0) return 0;
    if (!this.sender.smsConfigured) {
      this.log.warn({ accountId, messageId }, 'SMS notice skipped: no system SMS carrier is configured');
      return 0;
    }
    if (!(await this.isPaid(accountId))) return 0;
    const month = monthOf(now);
    const { title, content } = siteMessageText(kind, params, 'zh-cn');
    let sent = 0;
    for (const phone of phones) {
      const charged = await this.database.db.transaction().execute(async (trx) => {
        if ((await repo.noticeSmsCount(trx, accountId, month)) >= NOTICE_SMS_MONTHLY_LIMIT) return 'limit';
        const row = { message_id: messageId, phone, account_id: accountId, month, sent_at: now };
        if (!(await repo.insertNoticeSms(trx, row))) return 'done';
        const fen = await noticeSmsPriceFen(trx);
        if (fen > 0) {
          await postEntry(trx, {
            accountId,
            kind: 'charge',
            amountFen: -fen,
            reason: `sms_notification ${beijingDay(now)}`,
            detail: JSON.stringify({ code: 'sms_notification', messageId, units: 1 }),
            idempotencyKey: `notice-sms:${messageId}:${phone}`,
            at: now,
          });
        }
        return 'charged';
      });
      if (charged === 'limit') {
        this.log.info({ accountId, messageId, month }, 'SMS notice skipped: the monthly limit is reached');
        break;
      }
      if (charged === 'done') continue;
      await this.sender.sendSms({ to: phone, text: `【Herald】${title}：${content}` });
      sent++;
    }
    return sent;
  }

  private async isPaid(accountId: number): Promise<boolean> {
    return (await fundsOf(this.database, accountId))?.plan === 'paid';
  }

  private async settingsOf(
    accountId: number,
  ): Promise<Record<SiteMessageCategory, { email: boolean; sms: boolean }>> {
    const rows = await repo.listSettings(this.database, accountId);
    const saved = new Map(rows.map((r) => [r.category, r]));
    return Object.fromEntries(
      SITE_MESSAGE_CATEGORIES.map((category) => {
        const row = saved.get(category);
        return [
          category,
          row
            ? { email: Number(row.email) === 1, sms: Number(row.sms) === 1 }
            : { ...MESSAGE_SETTING_DEFAULTS },
        ];
      }),
    ) as Record<SiteMessageCategory, { email: boolean; sms: boolean }>;
  }
}

/** What one SMS notice costs, fen: the operator's `sms_notification` price, rounded up. */
async function noticeSmsPriceFen(db: Kysely<DB>): Promise<number> {
  const price = (await pricesIn(db)).get('sms_notification');
  return price ? Math.ceil(price.fen / price.unit) : 0;
}

/** A Beijing month, YYYY-MM. */
function monthOf(at: number): string {
  return beijingDay(at).slice(0, 7);
}

function notifierView(row: repo.NotifierRow): MessageNotifierView {
  return { id: Number(row.id), kind: row.kind, address: row.address };
}

function view(row: repo.SiteMessageRow, lang: Lang): SiteMessageView | undefined {
  if (!(row.kind in SITE_MESSAGE_KINDS)) return undefined;
  const kind = row.kind as SiteMessageKindName;
  const params = JSON.parse(row.params) as SiteMessageParams;
  return {
    id: Number(row.id),
    kind,
    category: SITE_MESSAGE_KINDS[kind].category,
    ...siteMessageText(kind, params, lang),
    link: SITE_MESSAGE_KINDS[kind].link,
    read: row.read_at !== null,
    createdAt: Number(row.created_at),
  };
}
