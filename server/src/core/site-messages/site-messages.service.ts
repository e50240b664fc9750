import {
  type Lang,
  SITE_MESSAGE_KINDS,
  type SiteMessageKindName,
  type SiteMessageParams,
  type SiteMessagesPage,
  type SiteMessageView,
  siteMessagesQuerySchema,
  siteMessagesReadSchema,
  siteMessageText,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { Caller } from '../context.ts';
import * as repo from './site-messages.repo.ts';

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
 * marking messages read. Every call is scoped to the caller's account: another account's ids
 * are not found, so marking them changes nothing.
 */
export class SiteMessagesService {
  private readonly database: Database;
  private readonly now: () => number;

  constructor(database: Database, now: () => number = Date.now) {
    this.database = database;
    this.now = now;
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
