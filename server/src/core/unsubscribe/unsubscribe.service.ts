import {
  maskEmail,
  UNSUBSCRIBE_REASONS,
  type UnsubscribePageDesign,
  type UnsubscribeReason,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import { takeEventOrder } from '../../db/mail-event-log.ts';
import { verifyUnsubscribeToken } from '../../lib/unsubscribe-token.ts';
import type { MailEventsService } from '../mail-events/mail-events.service.ts';
import { normaliseAddress, type SuppressionService } from '../suppression/suppression.service.ts';
import { parseUserAgent } from '../tracking/user-agent.ts';
import * as repo from './unsubscribe.repo.ts';
import type { UnsubscribePagesService } from './unsubscribe-pages.service.ts';

/** What an unsubscribe link shows: its account's design and the masked address. */
export interface UnsubscribeLinkView {
  design: UnsubscribePageDesign;
  maskedEmail: string;
  /** The recipient has already unsubscribed through this link. */
  unsubscribed: boolean;
}

export interface UnsubscribeRequest {
  /** A reason key picked on the page; anything else is dropped. */
  reason?: string | undefined;
  ip?: string | undefined;
  userAgent?: string | undefined;
}

interface Link {
  accountId: number;
  recipientId: number;
  email: string;
  apiUserId: number | null;
  /** The recipient row still exists (mail older than the retention has none, and gets no event). */
  known: boolean;
}

/**
 * The recipient's side of unsubscribing (`${publicUrl}/unsubscribe/<token>`): the token of the
 * List-Unsubscribe header (unsubscribe-token.ts) names the account, recipient row and address, and
 * is checked with the key the pipeline signed it with. Unsubscribing puts the address on the
 * account's unsubscribe list (every API_USER and label: "an unsubscribed address is suppressed for
 * that account") and appends one `unsubscribe` event, in one transaction; a second use of the link
 * refreshes the list entry (re-adding it if it was deleted) but adds no second event.
 */
export class UnsubscribeService {
  private readonly deps: {
    database: Database;
    key: Buffer;
    pages: UnsubscribePagesService;
    suppression: SuppressionService;
    mailEvents: MailEventsService;
    now?: () => number;
  };

  constructor(deps: UnsubscribeService['deps']) {
    this.deps = deps;
  }

  /** What the link's page shows, or null for a tampered or unknown link. */
  async open(token: string): Promise<UnsubscribeLinkView | null> {
    const link = await this.resolve(token);
    if (!link) return null;
    const { database } = this.deps;
    const unsubscribed = link.known && (await repo.hasUnsubscribeEvent(database.db, link.recipientId));
    return {
      design: await this.deps.pages.designFor({ accountId: link.accountId }, link.apiUserId),
      maskedEmail: maskEmail(link.email),
      unsubscribed,
    };
  }

  /** Records the unsubscribe; null for a tampered or unknown link. */
  async unsubscribe(token: string, request: UnsubscribeRequest): Promise<UnsubscribeLinkView | null> {
    const link = await this.resolve(token);
    if (!link) return null;
    const { database, suppression, mailEvents } = this.deps;
    const at = (this.deps.now ?? Date.now)();
    const reason = UNSUBSCRIBE_REASONS.includes(request.reason as UnsubscribeReason)
      ? request.reason
      : undefined;
    await database.db.transaction().execute(async (trx) => {
      // Taken first so two clicks racing on PostgreSQL cannot both see "no event yet".
      await takeEventOrder(trx, database.dialect);
      await suppression.recordUnsubscribe({ accountId: link.accountId }, link.email, {}, 'link', at, trx);
      if (!link.known || (await repo.hasUnsubscribeEvent(trx, link.recipientId))) return;
      await mailEvents.append(
        [
          {
            recipientId: link.recipientId,
            kind: 'unsubscribe',
            at,
            data: {
              ...(request.ip ? { ip: request.ip } : {}),
              ...(request.userAgent
                ? { userAgent: request.userAgent.slice(0, 512), ...parseUserAgent(request.userAgent) }
                : {}),
              ...(reason ? { unsubscribeReason: reason } : {}),
            },
          },
        ],
        trx,
      );
    });
    return {
      design: await this.deps.pages.designFor({ accountId: link.accountId }, link.apiUserId),
      maskedEmail: maskEmail(link.email),
      unsubscribed: true,
    };
  }

  private async resolve(token: string): Promise<Link | null> {
    const claim = verifyUnsubscribeToken(token, this.deps.key);
    if (!claim) return null;
    const row = await repo.findLinkedRecipient(this.deps.database, claim.accountId, claim.recipientId);
    if (row && normaliseAddress(row.recipient) !== normaliseAddress(claim.email)) return null;
    if (!row && !(await repo.accountExists(this.deps.database, claim.accountId))) return null;
    return {
      accountId: claim.accountId,
      recipientId: claim.recipientId,
      email: claim.email,
      apiUserId: row?.api_user_id == null ? null : Number(row.api_user_id),
      known: row !== undefined,
    };
  }
}
