import {
  AppError,
  type Lang,
  type PublicSubscriptionView,
  SUBSCRIPTION_CONFIRM_TTL_MS,
  type SubscribeResult,
  type subscribeInputSchema,
} from '@herald/shared';
import type { z } from 'zod';
import type { Database } from '../../db/database.ts';
import { signFields, verifiedFields } from '../../lib/signed-token.ts';
import type { Logger } from '../../logger.ts';
import type { AddressListsService } from '../address-lists/address-lists.service.ts';
import { apiUserRefOf } from '../api-users/api-user-auth.ts';
import type { CaptchaService } from '../captcha/captcha.service.ts';
import type { KeyCaller } from '../context.ts';
import type { SendService } from '../send/send.service.ts';
import { deleteEntries } from '../suppression/suppression.repo.ts';
import type { SuppressionService } from '../suppression/suppression.service.ts';
import { confirmationMailHtml } from './subscription-mail.ts';
import type { ConfirmPageView } from './subscription-pages.html.ts';
import * as repo from './subscriptions.repo.ts';

export interface SubscribeDeps {
  database: Database;
  captcha: CaptchaService;
  send: SendService;
  lists: AddressListsService;
  suppression: SuppressionService;
  /** Signs the confirmation links (purposeKey('subscription-confirm', secret)). */
  key: Buffer;
  publicUrl: string;
  logger: Logger;
  now?: () => number;
}

/** A second confirmation mail to the same address on the same subscription waits this long. */
const RESEND_MS = 2 * 60_000;

export interface Visitor {
  ip: string;
  userAgent: string;
  lang: Lang;
}

/**
 * The public side of subscriptions: the page's data, the form (behind an image code), and the
 * confirmation link.
 *
 * Consent rules. With confirmation on, the form only sends the confirmation mail (as the
 * subscription's API_USER, through the ordinary send path, so it is tracked and delivered like
 * any mail; it is sent as trigger mail, since the visitor has just asked for it) and the address
 * joins the list when the signed link is opened within 72 hours. With confirmation off it joins
 * at once. Addresses the account must not mail are never added silently:
 *   - unsubscribed from the account's mail: a new sign-up is an explicit consent only when proved,
 *     so it always goes through the confirmation mail, even with confirmation off; opening the
 *     link lifts the unsubscribe entries that would stop this API_USER's mail, then adds it;
 *   - on the bounce, complaint, block or global invalid lists, or caught by an interception rule:
 *     refused with 'Subscription failed' (a form does not tell visitors why an address is blocked).
 * Every sign-up is kept (when, from which address, confirmed when) as the record of consent.
 */
export class SubscribeService {
  private readonly deps: SubscribeDeps;
  private readonly now: () => number;

  constructor(deps: SubscribeDeps) {
    this.deps = deps;
    this.now = deps.now ?? (() => Date.now());
  }

  async page(publicId: string): Promise<PublicSubscriptionView> {
    const row = await repo.findByPublicId(this.deps.database, publicId);
    if (!row) throw new AppError('SUBSCRIPTION_NOT_FOUND');
    return {
      available: row.deleted_at === null,
      name: row.name,
      logoUrl: row.logo_url,
      displayMode: row.display_mode,
      themeColor: row.theme_color,
    };
  }

  async subscribe(input: z.output<typeof subscribeInputSchema>, visitor: Visitor): Promise<SubscribeResult> {
    const { database } = this.deps;
    await this.deps.captcha.requireValid(input.captchaId, input.code, 'subInvite');
    const row = await repo.findByPublicId(database, input.id);
    if (!row) throw new AppError('SUBSCRIPTION_NOT_FOUND');
    if (row.deleted_at !== null) throw new AppError('SUBSCRIPTION_UNAVAILABLE');
    const accountId = Number(row.account_id);
    const address = input.email.toLowerCase();
    const verdict = await this.deps.suppression.check(accountId, address, {
      apiUserId: Number(row.api_user_id),
      labelId: null,
      emailType: 'batch',
    });
    if (verdict && verdict.list !== 'unsubscribe') throw new AppError('SUBSCRIPTION_FAILED');
    const signup = {
      subscriptionId: Number(row.id),
      accountId,
      address,
      name: input.name,
      ip: visitor.ip,
      userAgent: visitor.userAgent.slice(0, 300),
    };

    if (Number(row.confirm) === 0 && !verdict) {
      await this.join(row, address, input.name);
      await repo.insertSignup(database, { ...signup, status: 'confirmed' }, this.now());
      return { status: 'subscribed' };
    }

    // One confirmation mail per address and subscription every few minutes: the form cannot be
    // used to flood someone's mailbox.
    const recent = await repo.countRecentSignups(
      database,
      signup.subscriptionId,
      address,
      this.now() - RESEND_MS,
    );
    if (recent > 0) return { status: 'pending' };
    const signupId = await repo.insertSignup(database, { ...signup, status: 'pending' }, this.now());
    try {
      await this.sendConfirmation(row, signupId, address, visitor.lang);
    } catch (error) {
      this.deps.logger.warn({ err: error, subscriptionId: row.id }, 'subscription confirmation not sent');
      throw new AppError('SUBSCRIPTION_FAILED');
    }
    return { status: 'pending' };
  }

  /** The confirmation link: the sign-up joins the list (once; a second click changes nothing). */
  async confirm(token: string): Promise<ConfirmPageView> {
    const { database } = this.deps;
    const fields = verifiedFields(token, this.deps.key);
    if (!fields || typeof fields[0] !== 'number' || typeof fields[1] !== 'number') return { kind: 'invalid' };
    const [signupId, expiresAt] = fields as [number, number];
    if (expiresAt <= this.now()) return { kind: 'invalid' };
    const signup = await repo.findSignup(database, signupId);
    if (!signup) return { kind: 'invalid' };
    const row = await repo.findById(database, Number(signup.subscription_id));
    if (!row) return { kind: 'invalid' };
    if (row.deleted_at !== null) return { kind: 'unavailable' };
    const accountId = Number(row.account_id);
    try {
      if (signup.status === 'pending') {
        await deleteEntries(database, accountId, 'unsubscribe', {
          addresses: [signup.address],
          apiUserIds: [0, Number(row.api_user_id)],
        });
        await this.join(row, signup.address, signup.name);
        await repo.markConfirmed(database, signupId, this.now());
      }
    } catch (error) {
      this.deps.logger.warn({ err: error, subscriptionId: row.id }, 'subscription confirmation failed');
      return { kind: 'failed' };
    }
    return {
      kind: 'confirmed',
      name: row.name,
      logoUrl: row.logo_url,
      themeColor: row.theme_color,
      email: signup.address,
    };
  }

  /** The address joins the linked list; one it already has stays as it is. */
  private async join(row: repo.SubscriptionRow, address: string, name: string): Promise<void> {
    await this.deps.lists.addMembers(
      { accountId: Number(row.account_id) },
      Number(row.list_id),
      [{ address, name, vars: {} }],
      { upsert: false },
    );
  }

  private async sendConfirmation(
    row: repo.SubscriptionRow,
    signupId: number,
    address: string,
    lang: Lang,
  ): Promise<void> {
    const accountId = Number(row.account_id);
    const apiUser = await this.deps.send.reads.apiUserForTest(accountId, Number(row.api_user_id));
    if (!apiUser) throw new AppError('SUBSCRIPTION_FAILED');
    const caller: KeyCaller = { accountId, apiUser: { ...apiUserRefOf(apiUser), emailType: 'trigger' } };
    const token = signFields([signupId, this.now() + SUBSCRIPTION_CONFIRM_TTL_MS], this.deps.key);
    const link = `${this.deps.publicUrl}/subscribe/confirm/${token}`;
    await this.deps.send.send(caller, {
      from: row.from_address,
      fromName: row.from_name,
      to: address,
      subject: row.subject,
      html: confirmationMailHtml({
        lang,
        name: row.name,
        logoUrl: row.logo_url,
        themeColor: row.theme_color,
        link,
        hours: SUBSCRIPTION_CONFIRM_TTL_MS / 3_600_000,
      }),
    });
  }
}
