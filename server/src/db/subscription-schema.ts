import type { SubscriptionDisplayMode } from '@herald/shared';
import type { Generated } from 'kysely';

/** Email subscriptions (migration 0049). */
export interface SubscriptionsTable {
  id: Generated<number>;
  account_id: number;
  /** The public page's id (random, unique): rows' numbers are not shown to visitors. */
  public_id: string;
  name: string;
  logo_url: string;
  subject: string;
  from_name: string;
  from_address: string;
  api_user_id: number;
  list_id: number;
  /** 1: a confirmation mail first (double opt-in); 0: the address joins at once. */
  confirm: number;
  display_mode: SubscriptionDisplayMode;
  theme_color: string;
  created_at: number;
  updated_at: number;
  /** Set when the subscription is deleted: its page and snippet then say it is no longer available. */
  deleted_at: number | null;
}

/** One sign-up on a subscription's page: the record of consent (when, from where, confirmed when). */
export interface SubscriptionSignupsTable {
  id: Generated<number>;
  subscription_id: number;
  account_id: number;
  /** Lower-cased. */
  address: string;
  name: string;
  status: 'pending' | 'confirmed';
  ip: string;
  user_agent: string;
  created_at: number;
  confirmed_at: number | null;
}
