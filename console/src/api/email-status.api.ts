import type { EmailStatus, EmailStatusView, SendLogEntry } from '@herald/shared/schemas/suppression.schema';
import { http } from '../infra/http/http-client.ts';

/** Email status (console-spec §7 "/data/emailStatus"): per-recipient status and send log. */
export type { SendLogEntry };
export type EmailStatusRow = EmailStatusView;

export interface EmailStatusFilter {
  email?: string;
  emailId?: string;
  apiUserId?: number;
  labelId?: number;
  status?: EmailStatus;
  startTime: number;
  endTime: number;
  page: number;
  pageSize: number;
}

export const fetchEmailStatus = async (filter: EmailStatusFilter) =>
  http.get<{ data: EmailStatusRow[]; total: number }>('/data/emailStatus', { ...filter });
