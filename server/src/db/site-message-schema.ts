import type { Generated } from 'kysely';

/** Row type of the message centre's records (migration 0059). */
export interface SiteMessagesTable {
  id: Generated<number>;
  account_id: number;
  /** A kind of the shared catalogue (SITE_MESSAGE_KINDS). */
  kind: string;
  category: string;
  /** The wording's parameters, JSON. */
  params: string;
  created_at: number;
  read_at: number | null;
}
