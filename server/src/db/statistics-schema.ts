import type { Generated } from 'kysely';

/** Row types of the statistics rollups, reputation history and monitor thresholds (migration 0024). */

/** The counters every rollup row carries (one per kind of mail event, plus the unique ones). */
export interface StatCounterColumns {
  requested: number;
  delivered: number;
  opened: number;
  clicked: number;
  unique_opened: number;
  unique_clicked: number;
  soft_bounced: number;
  invalid: number;
  spam_reported: number;
  unsubscribed: number;
}

/** SendCloud invalidstat's reasons of invalid mail (sub-statuses 401–409). */
export interface StatInvalidReasonColumns {
  inv_blacklist: number;
  inv_unsubscribe: number;
  inv_esp_unavailable: number;
  inv_address_error: number;
  inv_ip_domain_rejected: number;
  inv_not_found: number;
  inv_spam: number;
  inv_rejected: number;
  inv_other: number;
}

/** Delivery time of deliver events (accept → 250), in the buckets of DELIVERY_TIME_BUCKETS. */
export interface StatDeliveryTimeColumns {
  dt_1s: number;
  dt_5s: number;
  dt_30s: number;
  dt_1m: number;
  dt_5m: number;
  dt_30m: number;
  dt_1h: number;
  dt_over: number;
}

interface StatKey {
  account_id: number;
  /** Asia/Shanghai day, YYYY-MM-DD. */
  day: string;
  /** 0 when the mail had no API_USER / label. */
  api_user_id: number;
  label_id: number;
  recipient_domain: string;
}

export interface StatHoursTable extends StatKey, StatCounterColumns {
  /** Asia/Shanghai hour 0–23. */
  hour: number;
}

export interface StatDaysTable extends StatKey, StatCounterColumns, StatInvalidReasonColumns {}

/** Per account × day × receiving domain: what the domain views read. */
export interface StatDomainDaysTable extends StatCounterColumns, StatInvalidReasonColumns {
  account_id: number;
  day: string;
  recipient_domain: string;
}

/** Per account × day: the rows the undivided series and the dashboard read. */
export interface StatAccountDaysTable extends StatCounterColumns {
  account_id: number;
  day: string;
}

export interface StatDeliveryTimesTable extends StatDeliveryTimeColumns {
  account_id: number;
  day: string;
  recipient_domain: string;
}

export interface ReputationHistoryTable {
  account_id: number;
  day: string;
  score: number;
  requested: number;
  delivered: number;
  opened: number;
  clicked: number;
  invalid: number;
  spam_reported: number;
  unsubscribed: number;
  created_at: number;
}

export interface StatMonitorConfigsTable {
  id: Generated<number>;
  account_id: number;
  recipient_domain: string;
  /** Percent thresholds; null = not watched. */
  min_delivered_rate: number | null;
  max_invalid_rate: number | null;
  min_open_rate: number | null;
  created_at: number;
  updated_at: number;
}
