import type { MailEventData } from '@herald/shared';
import type { Database } from '../../db/database.ts';
import { type OpenClaim, trackingKey, verifyClickToken, verifyOpenToken } from '../../lib/tracking-token.ts';
import type { Logger } from '../../logger.ts';
import type { MailEventsService } from '../mail-events/mail-events.service.ts';
import { findTrackedRecipient, markFirst } from './tracking.repo.ts';
import { isMachineAgent, parseUserAgent } from './user-agent.ts';

/**
 * Open and click hits (the public pixel and redirect). Each hit appends an `open` or `click`
 * event, in one transaction with the recipient's first-open (first-click) mark, with the client's
 * address, browser and system. Machines are recorded but flagged `bot` and never counted as the
 * first: image proxies and scanners (by user agent), HEAD requests, and hits within
 * PREFETCH_WINDOW_MS of the delivery (a scanner fetching as the mail arrives; a person cannot
 * have read it yet). A hit whose recording fails still gets its pixel or redirect.
 */
export const PREFETCH_WINDOW_MS = 2_000;

export interface TrackingHit {
  method: string;
  ip: string;
  userAgent: string;
}

export interface TrackingDeps {
  database: Database;
  mailEvents: MailEventsService;
  secretKey: Buffer;
  logger: Logger;
  now?: () => number;
}

export class TrackingService {
  private readonly deps: TrackingDeps;
  private readonly key: Buffer;
  private readonly now: () => number;

  constructor(deps: TrackingDeps) {
    this.deps = deps;
    this.key = trackingKey(deps.secretKey);
    this.now = deps.now ?? Date.now;
  }

  /** An open; false when the token is not one of ours (the caller answers 404). */
  async open(token: string, hit: TrackingHit): Promise<boolean> {
    const claim = verifyOpenToken(token.replace(/\.gif$/i, ''), this.key);
    if (!claim) return false;
    await this.record('open', claim, hit, {});
    return true;
  }

  /** A click: the original link, or null when the token is not one of ours. */
  async click(token: string, hit: TrackingHit): Promise<string | null> {
    const claim = verifyClickToken(token, this.key);
    if (!claim) return null;
    await this.record('click', claim, hit, { url: claim.url });
    return claim.url;
  }

  private async record(
    kind: 'open' | 'click',
    claim: OpenClaim,
    hit: TrackingHit,
    extra: MailEventData,
  ): Promise<void> {
    const { database, mailEvents, logger } = this.deps;
    try {
      const at = this.now();
      const row = await findTrackedRecipient(database.db, claim.accountId, claim.recipientId);
      if (!row) return; // the recipient's data is gone; the link still works
      const deliveredAt = row.delivered_at === null ? null : Number(row.delivered_at);
      const bot =
        hit.method === 'HEAD' ||
        isMachineAgent(hit.userAgent) ||
        deliveredAt === null ||
        at - deliveredAt < PREFETCH_WINDOW_MS;
      await database.db.transaction().execute(async (trx) => {
        const first = !bot && (await markFirst(trx, claim.accountId, claim.recipientId, kind, at));
        const data: MailEventData = {
          ...extra,
          ip: hit.ip,
          userAgent: hit.userAgent,
          ...parseUserAgent(hit.userAgent),
          bot,
          first,
        };
        await mailEvents.append([{ recipientId: claim.recipientId, kind, at, data }], trx);
      });
    } catch (error) {
      logger.error({ err: error, kind, recipientId: claim.recipientId }, 'recording a tracking hit failed');
    }
  }
}
