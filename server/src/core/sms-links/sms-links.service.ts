import {
  AppError,
  epochDay,
  everyDay,
  parseMobile,
  type SmsClickDay,
  type SmsLinkClickView,
  type SmsLinkSettingView,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import { findPlan } from '../api-users/api-users.repo.ts';
import type { Caller } from '../context.ts';
import { isMachineAgent } from '../tracking/user-agent.ts';
import { linkIdOf, shortCode } from './short-code.ts';
import * as repo from './sms-links.repo.ts';

const CACHE_MS = 5_000;
const ID_BLOCK = 1000;
const DAY_MS = 86_400_000;
const SPAN_MAX_MS = 31 * DAY_MS;
/** A click this soon after the SMS was accepted is a handset's or messenger's link preview. */
const PREVIEW_MS = 5_000;
/** Links as the content rules write them: http(s):// up to the next space. */
const LINK = /https?:\/\/[^\s]+/g;

/** One link of one SMS, as the accepting transaction writes it. */
export interface NewShortLink {
  id: number;
  url: string;
}

/** Replaces the links of one recipient's text with their own short links. */
export interface SmsLinker {
  shorten(text: string): Promise<{ text: string; links: NewShortLink[] }>;
}

export interface ClickHit {
  method: string;
  userAgent: string;
}

/**
 * SMS link tracking (issue 17): for a paid account that turned it on, each link in an SMS of a
 * template marked for tracking becomes `<base>/<code>`, one per recipient, so a click is the
 * number's. Codes come from ids reserved a thousand at a time, so they are known before the SMS is
 * written, short (base 62) and signed (two characters): a guessed code is refused without a read.
 * A click by a previewer or scanner (by user agent, HEAD, or within seconds of sending) is kept as
 * a machine click.
 */
export class SmsLinksService {
  private readonly database: Database;
  private readonly key: Buffer;
  private readonly base: string;
  private readonly now: () => number;
  private readonly cache = new Map<number, { on: boolean; until: number }>();
  private ids: { next: number; end: number } = { next: 0, end: 0 };
  private reserving: Promise<void> | undefined;

  constructor(database: Database, options: { key: Buffer; base: string; now?: () => number }) {
    this.database = database;
    this.key = options.key;
    this.base = options.base.replace(/\/$/, '');
    this.now = options.now ?? Date.now;
  }

  async getSetting({ accountId }: Caller): Promise<SmsLinkSettingView> {
    const [row, plan] = await Promise.all([
      repo.findSetting(this.database, accountId),
      findPlan(this.database, accountId),
    ]);
    return { enabled: Number(row?.enabled ?? 0) === 1, paid: plan === 'paid', base: `${this.base}/` };
  }

  async setSetting(caller: Caller, input: { enabled: boolean }): Promise<SmsLinkSettingView> {
    if (input.enabled && (await findPlan(this.database, caller.accountId)) !== 'paid') {
      throw new AppError('SMS_LINK_PAID_ONLY');
    }
    await repo.saveSetting(this.database, caller.accountId, input.enabled, this.now());
    this.cache.delete(caller.accountId);
    return this.getSetting(caller);
  }

  /** The account's linker when its SMS links are tracked (paid and turned on), else null. */
  async linker({ accountId }: Caller): Promise<SmsLinker | null> {
    const now = this.now();
    let hit = this.cache.get(accountId);
    if (!hit || hit.until <= now) {
      const setting = await this.getSetting({ accountId });
      hit = { on: setting.enabled && setting.paid, until: now + CACHE_MS };
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(accountId, hit);
    }
    if (!hit.on) return null;
    return {
      shorten: async (text) => {
        const urls = text.match(LINK) ?? [];
        if (urls.length === 0) return { text, links: [] };
        const links: NewShortLink[] = [];
        for (const url of urls) links.push({ id: await this.nextId(), url });
        let i = 0;
        const shortened = text.replace(
          LINK,
          () => `${this.base}/${shortCode(this.key, (links[i++] as NewShortLink).id)}`,
        );
        return { text: shortened, links };
      },
    };
  }

  /** A click on a short link: its target, or undefined when the code is not one of ours. */
  async click(code: string, hit: ClickHit): Promise<string | undefined> {
    const id = linkIdOf(this.key, code);
    if (id === undefined) return undefined;
    const link = await repo.findLink(this.database, id);
    if (!link) return undefined;
    const at = this.now();
    const machine =
      hit.method === 'HEAD' || isMachineAgent(hit.userAgent) || at - Number(link.created_at) < PREVIEW_MS;
    await repo.insertClick(this.database, {
      link_id: id,
      account_id: Number(link.account_id),
      phone: link.phone,
      url: link.url,
      machine: machine ? 1 : 0,
      user_agent: hit.userAgent.slice(0, 300),
      at,
    });
    return link.url;
  }

  async clicks(
    { accountId }: Caller,
    q: { phone?: string | undefined; startTime: number; endTime: number; page: number; pageSize: number },
  ): Promise<{ total: number; list: SmsLinkClickView[] }> {
    const phone = q.phone ? (parseMobile(q.phone, 'CN')?.e164 ?? q.phone) : undefined;
    const { rows, total } = await repo.listClicks(this.database, accountId, {
      phone,
      from: q.startTime,
      to: q.endTime + 1,
      offset: (q.page - 1) * q.pageSize,
      limit: q.pageSize,
    });
    return {
      total,
      list: rows.map((r) => ({
        id: Number(r.id),
        phone: r.phone,
        url: r.url,
        machine: Number(r.machine) === 1,
        at: Number(r.at),
        smsId: r.sms_id,
      })),
    };
  }

  /** People's clicks, clicking numbers and machine clicks per Beijing day, quiet days as zeros. */
  async days({ accountId }: Caller, from: number, to: number): Promise<SmsClickDay[]> {
    if (to < from || to - from > SPAN_MAX_MS) throw new AppError('SMS_QUERY_SPAN');
    const rows = await repo.clicksPerDay(this.database, accountId, from, to + 1);
    const found = new Map(
      rows.map((r) => {
        const day = epochDay(Number(r.day));
        const figures = { day, clicks: Number(r.clicks ?? 0), uniquePhones: Number(r.phones ?? 0) };
        return [day, { ...figures, machine: Number(r.machine ?? 0) }];
      }),
    );
    return everyDay(from, to, found, (day) => ({ day, clicks: 0, uniquePhones: 0, machine: 0 }));
  }

  private async nextId(): Promise<number> {
    while (this.ids.next >= this.ids.end) {
      this.reserving ??= repo
        .reserveIds(this.database, ID_BLOCK)
        .then((first) => {
          this.ids = { next: first, end: first + ID_BLOCK };
        })
        .finally(() => {
          this.reserving = undefined;
        });
      await this.reserving;
    }
    return this.ids.next++;
  }
}
