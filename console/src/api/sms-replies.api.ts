import type { SmsReplyDay, SmsReplyView } from '@herald/shared/schemas/sms-reply.schema';
import { http } from '../infra/http/http-client.ts';

/** Replies from handsets (console calls `/sms/replies`, `/sms/replyData`). */
export type { SmsReplyDay, SmsReplyView };

export interface SmsReplyFilter {
  startTime: number;
  endTime: number;
  phone?: string;
  page: number;
  pageSize: number;
}

export const fetchSmsReplies = async (filter: SmsReplyFilter) => {
  const { data } = await http.get<{ data: { total: number; list: SmsReplyView[] } }>('/sms/replies', {
    ...filter,
  });
  return { data: data.list, total: data.total };
};

export const fetchSmsReplyData = async (range: { startTime: number; endTime: number }) =>
  (await http.get<{ data: SmsReplyDay[] }>('/sms/replyData', range)).data;
