import type { SmsStatus } from '@herald/shared';

/** Which SMS of the account: a period (request time, `to` excluded) and optional filters. */
export interface SmsMessageFilter {
  smsIds?: string[] | undefined;
  phones?: string[] | undefined;
  from: number;
  to: number;
  msgType?: number | undefined;
  templateId?: number | undefined;
  labelId?: number | undefined;
  status?: SmsStatus | undefined;
}

export interface SmsMessageQuery extends SmsMessageFilter {
  start: number;
  limit: number;
}
