import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import type { SuppressionEntryList } from '../../db/suppression-schema.ts';
import type {
  FailureCategory,
  InvalidReason,
  SendContext,
  Suppressed,
  SuppressionCheck,
  SuppressionList,
} from '../../mta/ports.ts';
import type { Caller } from '../context.ts';
import { matchRule } from './intercept-match.ts';
import * as repo from './suppression.repo.ts';

/**
 * Suppression: who mail must not go to (issue 6, reference §10). The pipeline asks check() once
 * per recipient right before rendering and calls recordFailure() after a final failure.
 *
 * Lists, in the order check() consults them (the first match wins):
 *   list            scope                       expiry                       reason          sub
 *   global_invalid  every account               2^n hours (n = times seen),  in blacklist    401
 *                                               at most 30 days
 *   bounce          the account                 as the global block; the     in blacklist    401
 *                                               user may delete it
 *   spam            the account                 180 days                     in blacklist    401
 *   user_defined    the account                 permanent (until deleted)    in blacklist    401
 *   unsubscribe     the account, or one         permanent (until deleted);   unsubscribed    402
 *                   API_USER and/or label       batch mail only
 *   intercept       custom rules: address,      permanent                    in blacklist    401
 *                   domain or keyword; one
 *                   API_USER or all
 * Every list but unsubscribe is a blacklist in SendCloud's terms (Aurora 401 "blacklist"); an
 * unsubscribe is 402. Unsubscribes stop batch mail only: trigger mail (codes, receipts) is what
 * the recipient asked for, as SendCloud's unsubscribe link applies to batch mail.
 *
 * What recordFailure() adds: an address that does not exist (category not_exist, from an SMTP
 * rejection or a DSN) goes on the global list and on the account's bounce list until the same
 * time; an address format error on the bounce list (permanent, deletable); a rejection as spam on
 * the spam list (180 days). Other failures (server unreachable, rejected, ...) say nothing about
 * the address and add nothing. Deleting a bounce entry also releases the address from the global
 * list for this account until it bounces again; other accounts stay protected.
 *
 * Speed: checkMany() (the delivery engine asks it once per claimed batch) is two indexed lookups
 * for all the batch's addresses (account entries by (account_id, address), global rows by their
 * key) run together, plus the account's interception rules from a cache of a
 * few seconds (RULES_TTL_MS; a change made in this process clears it at once).
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
export const GLOBAL_BLOCK_MAX_MS = 30 * DAY_MS;
export const SPAM_BLOCK_MS = 180 * DAY_MS;
const RULES_TTL_MS = 5_000;

const ORDER: SuppressionEntryList[] = ['bounce', 'spam', 'user_defined', 'unsubscribe'];

/** How long the n-th sighting of a non-existent address blocks it. */
export function globalBlockMs(timesSeen: number): number {
  return Math.min(2 ** Math.min(timesSeen, 20) * HOUR_MS, GLOBAL_BLOCK_MAX_MS);
}

export function normaliseAddress(recipient: string): string {
  return recipient.trim().toLowerCase();
}

const LIST_TEXT: Record<SuppressionList, string> = {
  global_invalid: 'address does not exist',
  bounce: 'bounce list',
  spam: 'spam report',
  user_defined: 'block list',
  unsubscribe: 'unsubscribed',
  intercept: 'custom interception rule',
};

function until(ms: number | null): string {
  if (ms === null) return '';
  return `, until ${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function suppressed(list: SuppressionList, extra: string, expiresAt: number | null): Suppressed {
  const unsubscribed = list === 'unsubscribe';
  const reason: InvalidReason = unsubscribed ? 'unsubscribed' : 'blacklist';
  const label = unsubscribed ? 'unsubscribed' : 'in blacklist';
  return {
    list,
    reason,
    subStatus: unsubscribed ? 402 : 401,
    detail: `${label} (${LIST_TEXT[list]}${extra}${until(expiresAt)})`,
  };
}

export class SuppressionService implements SuppressionCheck {
  private readonly database: Database;
  private readonly now: () => number;
  private readonly rules = new Map<number, { at: number; rules: repo.RuleRow[] }>();

  private readonly skipsInterception: (accountId: number) => Promise<boolean>;

  /**
   * `skipsInterception` is the account's "send without interception" sender config: when on, its
   * custom interception rules are not applied (the lists still are).
   */
  constructor(
    database: Database,
    options: { now?: () => number; skipsInterception?: (accountId: number) => Promise<boolean> } = {},
  ) {
    this.database = database;
    this.now = options.now ?? Date.now;
    this.skipsInterception = options.skipsInterception ?? (async () => false);
  }

  async check(accountId: number, recipient: string, context: SendContext): Promise<Suppressed | null> {
    const [verdict] = await this.checkMany(accountId, [{ recipient, context }]);
    return verdict ?? null;
  }

  /** check() for several recipients of one account at once: two queries for the lot. */
  async checkMany(
    accountId: number,
    recipients: { recipient: string; context: SendContext }[],
  ): Promise<(Suppressed | null)[]> {
    if (recipients.length === 0) return [];
    const addresses = recipients.map((r) => normaliseAddress(r.recipient));
    const distinct = [...new Set(addresses)];
    const now = this.now();
    const [globals, entries, rules] = await Promise.all([
      repo.liveGlobalFor(this.database, accountId, distinct, now),
      repo.liveEntriesFor(this.database, accountId, distinct, now),
      this.rulesOf(accountId, now),
    ]);
    const globalOf = new Map(globals.map((g) => [g.address, g]));
    let skips: Promise<boolean> | undefined;
    return Promise.all(
      recipients.map(async ({ context }, i) => {
        const address = addresses[i] as string;
        const global = globalOf.get(address);
        if (global)
          return suppressed('global_invalid', `, seen ${global.times_seen}×`, Number(global.blocked_until));
        for (const list of ORDER) {
          const entry = entries.find(
            (e) =>
              e.address === address &&
              e.list === list &&
              (list !== 'unsubscribe' ||
                (context.emailType === 'batch' &&
                  (Number(e.api_user_id) === 0 || Number(e.api_user_id) === context.apiUserId) &&
                  (Number(e.label_id) === 0 || Number(e.label_id) === context.labelId))),
          );
          if (entry) return suppressed(list, '', entry.expires_at === null ? null : Number(entry.expires_at));
        }
        const rule = rules.find((r) => matchRule(r, address, context.apiUserId));
        skips ??= rule ? this.skipsInterception(accountId) : undefined;
        if (rule && !(await skips)) return suppressed('intercept', ` ${rule.type} ${rule.value}`, null);
        return null;
      }),
    );
  }

  async recordFailure(
    accountId: number,
    recipient: string,
    failure: { category: FailureCategory; kind: 'invalid' | 'soft_bounce'; detail: string; at: number },
  ): Promise<void> {
    const address = normaliseAddress(recipient);
    const { category, detail, at } = failure;
    if (category === 'not_exist') {
      const previous = await repo.findGlobal(this.database, address);
      const timesSeen = (previous?.times_seen ?? 0) + 1;
      const blockedUntil = at + globalBlockMs(timesSeen);
      await repo.upsertGlobal(this.database, {
        address,
        times_seen: timesSeen,
        blocked_until: blockedUntil,
        detail,
        first_seen_at: previous?.first_seen_at ?? at,
        last_seen_at: at,
      });
      await this.addEntry(accountId, 'bounce', address, 'not_exist', detail, 'delivery', blockedUntil, at);
    } else if (category === 'format_error') {
      await this.addEntry(accountId, 'bounce', address, 'format_error', detail, 'delivery', null, at);
    } else if (category === 'spam') {
      await this.addEntry(accountId, 'spam', address, 'spam', detail, 'delivery', at + SPAM_BLOCK_MS, at);
    }
  }

  /** A recipient reported the mail as spam (a feedback loop or the report_spam event): 180 days. */
  async recordComplaint(
    { accountId }: Caller,
    recipient: string,
    detail: string,
    at = this.now(),
  ): Promise<void> {
    const address = normaliseAddress(recipient);
    await this.addEntry(accountId, 'spam', address, 'spam', detail, 'complaint', at + SPAM_BLOCK_MS, at);
  }

  /**
   * A recipient used an unsubscribe link (scoped to the mail's API_USER and label when given);
   * inside `trx` when given, so it commits with the caller's unsubscribe event.
   */
  async recordUnsubscribe(
    { accountId }: Caller,
    recipient: string,
    scope: { apiUserId?: number | null; labelId?: number | null },
    source = 'link',
    at = this.now(),
    trx?: Kysely<DB>,
  ): Promise<void> {
    await repo.upsertEntry(trx ? { ...this.database, db: trx } : this.database, {
      accountId,
      list: 'unsubscribe',
      address: normaliseAddress(recipient),
      apiUserId: scope.apiUserId,
      labelId: scope.labelId,
      reason: 'unsubscribed',
      detail: null,
      source,
      expiresAt: null,
      at,
    });
  }

  /** Forgets the account's cached interception rules (after a change in this process). */
  rulesChanged({ accountId }: Caller): void {
    this.rules.delete(accountId);
  }

  private async rulesOf(accountId: number, now: number): Promise<repo.RuleRow[]> {
    const cached = this.rules.get(accountId);
    if (cached && now - cached.at < RULES_TTL_MS && now >= cached.at) return cached.rules;
    const rules = await repo.listRules(this.database, accountId);
    if (this.rules.size > 10_000) this.rules.clear();
    this.rules.set(accountId, { at: now, rules });
    return rules;
  }

  private addEntry(
    accountId: number,
    list: SuppressionEntryList,
    address: string,
    reason: string,
    detail: string,
    source: string,
    expiresAt: number | null,
    at: number,
  ): Promise<void> {
    return repo.upsertEntry(this.database, {
      accountId,
      list,
      address,
      reason,
      detail,
      source,
      expiresAt,
      at,
    });
  }
}
