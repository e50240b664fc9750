import { randomBytes } from 'node:crypto';
import {
  AppError,
  type SubscriptionsPage,
  type SubscriptionUpdateValues,
  type SubscriptionValues,
  type SubscriptionView,
} from '@herald/shared';
import type { Database } from '../../db/database.ts';
import type { AddressListsService } from '../address-lists/address-lists.service.ts';
import type { ApiUserAuth } from '../api-users/api-user-auth.ts';
import type { Caller } from '../context.ts';
import { domainOf } from '../send/recipients.ts';
import type { SendService } from '../send/send.service.ts';
import * as repo from './subscriptions.repo.ts';

export interface SubscriptionsDeps {
  database: Database;
  auth: ApiUserAuth;
  send: SendService;
  lists: AddressListsService;
  now?: () => number;
}

/**
 * The account's subscriptions (console `/sendRelative/subscription*`, calls `/subInvite`). Saving
 * one proves the API_USER's key (checked against its stored hash, then forgotten: the key is
 * never kept), and checks that the linked list is the account's and the from address is on one of
 * its sending domains that may send (usable or verified), since the confirmation mails go out
 * from it as that API_USER. Deleting keeps the row, marked, so the public page can say so.
 */
export class SubscriptionsService {
  private readonly database: Database;
  private readonly auth: ApiUserAuth;
  private readonly send: SendService;
  private readonly lists: AddressListsService;
  private readonly now: () => number;

  constructor(deps: SubscriptionsDeps) {
    this.database = deps.database;
    this.auth = deps.auth;
    this.send = deps.send;
    this.lists = deps.lists;
    this.now = deps.now ?? Date.now;
  }

  view(row: repo.SubscriptionRow): SubscriptionView {
    return {
      id: Number(row.id),
      publicId: row.public_id,
      name: row.name,
      logoUrl: row.logo_url,
      subject: row.subject,
      fromName: row.from_name,
      fromAddress: row.from_address,
      apiUser: row.api_user ?? '',
      listId: Number(row.list_id),
      listName: row.list_name,
      listAddress: row.list_prefix === null ? null : this.lists.aliasOf(row.list_prefix),
      confirm: Number(row.confirm) === 1,
      displayMode: row.display_mode,
      themeColor: row.theme_color,
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
    };
  }

  async list(
    { accountId }: Caller,
    query: { name?: string | undefined; offset: number; limit: number },
  ): Promise<SubscriptionsPage> {
    const { rows, total } = await repo.listSubscriptions(this.database, accountId, query);
    return { list: rows.map((row) => this.view(row)), total };
  }

  async get({ accountId }: Caller, id: number): Promise<SubscriptionView> {
    return this.view(await this.row(accountId, id));
  }

  async create(caller: Caller, input: SubscriptionValues): Promise<SubscriptionView> {
    const values = await this.checked(caller, input, null);
    const id = await repo.insertSubscription(
      this.database,
      caller.accountId,
      randomBytes(16).toString('base64url'),
      values,
      this.now(),
    );
    return this.get(caller, id);
  }

  async update(caller: Caller, id: number, input: SubscriptionUpdateValues): Promise<SubscriptionView> {
    const current = await this.row(caller.accountId, id);
    const values = await this.checked(caller, input, current);
    await repo.updateSubscription(this.database, caller.accountId, id, values, this.now());
    return this.get(caller, id);
  }

  async remove({ accountId }: Caller, id: number): Promise<void> {
    if (!(await repo.deleteSubscription(this.database, accountId, id, this.now()))) {
      throw new AppError('SUBSCRIPTION_NOT_FOUND');
    }
  }

  private async row(accountId: number, id: number): Promise<repo.SubscriptionRow> {
    const row = await repo.findSubscription(this.database, accountId, id);
    if (!row) throw new AppError('SUBSCRIPTION_NOT_FOUND');
    return row;
  }

  /** The stored values of a form, once its API_USER, list and from domain are the account's. */
  private async checked(
    { accountId }: Caller,
    input: SubscriptionUpdateValues,
    current: repo.SubscriptionRow | null,
  ): Promise<repo.SubscriptionColumns> {
    let apiUserId: number;
    if (input.apiKey !== undefined) {
      apiUserId = await this.provenApiUser(accountId, input.apiUser, input.apiKey);
    } else if (current && current.api_user === input.apiUser) {
      apiUserId = Number(current.api_user_id);
    } else {
      throw new AppError('SUBSCRIPTION_API_KEY_REQUIRED', {}, [
        { field: 'apiKey', message: 'subscriptionApiKey' },
      ]);
    }
    await this.lists.listRow({ accountId }, input.listId);
    const domain = domainOf(input.fromAddress);
    if (!(await this.send.reads.usableDomains(accountId)).has(domain)) {
      throw new AppError('SUBSCRIPTION_FROM_DOMAIN_UNUSABLE', { domain });
    }
    return {
      name: input.name,
      logo_url: input.logoUrl,
      subject: input.subject,
      from_name: input.fromName,
      from_address: input.fromAddress.toLowerCase(),
      api_user_id: apiUserId,
      list_id: input.listId,
      confirm: input.confirm ? 1 : 0,
      display_mode: input.displayMode,
      theme_color: input.themeColor,
    };
  }

  /** The id of the account's API_USER whose key this is; the key itself goes no further. */
  private async provenApiUser(accountId: number, apiUser: string, apiKey: string): Promise<number> {
    try {
      const caller = await this.auth.authenticate(apiUser, apiKey);
      if (caller.accountId === accountId) return caller.apiUser.id;
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'API_AUTH_FAILED') throw error;
    }
    throw new AppError('SUBSCRIPTION_API_KEY_INVALID');
  }
}
