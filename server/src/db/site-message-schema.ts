import type { Generated } from 'kysely';

/** Row types of the message centre (migrations 0059, 0060). */
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
  /** When the notice task claimed it for mail and SMS (migration 0060); null until then. */
  notified_at: Generated<number | null>;
}

/** Whether a category is mailed and texted (migration 0060); no row is the default. */
export interface MessageSettingsTable {
  account_id: number;
  category: string;
  email: number;
  sms: number;
  updated_at: number;
}

export interface MessageNotifiersTable {
  id: Generated<number>;
  account_id: number;
  kind: 'email' | 'phone';
  address: string;
  created_at: number;
}

/** One SMS notice sent: a message to a phone, in a Beijing month (YYYY-MM). */
export interface NoticeSmsTable {
  message_id: number;
  phone: string;
  account_id: number;
  month: string;
  sent_at: number;
}
