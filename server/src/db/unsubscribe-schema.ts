import type { Generated } from 'kysely';

/** Row types of unsubscribe pages (migration 0022). */

export interface UnsubscribePagesTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  /** JSON of UnsubscribePageDesign without the name (packages/shared unsubscribe-page.schema.ts). */
  settings: string;
  created_at: number;
  updated_at: number;
}

export interface UnsubscribePageChoicesTable {
  account_id: number;
  /** 0 = the account's choice; otherwise the API_USER whose mail uses this page. */
  api_user_id: number;
  page_id: number;
  updated_at: number;
}
