import type { EmailStatus } from '@herald/shared/schemas/suppression.schema';
import { http } from '../app/http/http-client.ts';

/** Email status (console-spec §7 "/data/emailStatus"): per-recipient status and send log. */
export interface SendLogEntry {
  at: number;
  event: string;
  attempt: number;
  reason: string | null;
  subStatus: number | null;
  reply: string | null;
  mxHost: string | null;
  mxIp: string | null;
  tls: boolean;
  durationMs: number | null;
}

export interface EmailStatusRow {
  id: number;
  emailId: string;
  messageId: string;
  recipient: string;
  kind: string;
  status: EmailStatus;
  statusCode: number;
  subStatus: number | null;
  reason: string | null;
  lastReply: string | null;
  subject: string;
  from: string;
  emailType: string;
  apiUserId: number | null;
  apiUser: string | null;
  labelId: number | null;
  attempts: number;
  requestTime: number;
  modifiedTime: number;
  deliveredAt: number | null;
  sendLog: SendLogEntry[];
}

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
