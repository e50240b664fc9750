import type {
  MessageNotifierInput,
  MessageSettingInput,
  MessageSettingsView,
  SiteMessageCategory,
  SiteMessagesPage,
  SiteMessageView,
} from '@herald/shared/schemas/site-message.schema';
import { http } from '../infra/http/http-client.ts';

/**
 * The message centre (`/userMessages`): the account's messages in the reader's language, the
 * unread count of the header badge, and marking messages read.
 */
export type { SiteMessageCategory, SiteMessagesPage, SiteMessageView };

/** Unread messages of the message centre; a background load, silent when it fails. */
export async function fetchUnreadCount(): Promise<number> {
  const body = await http.get<{ data?: { totalCount?: number } | number }>(
    '/userMessages/unReadCount',
    undefined,
    {
      toast: false,
    },
  );
  const data = body.data;
  if (typeof data === 'number') return data;
  return data?.totalCount ?? 0;
}

export const fetchMessages = async (query: {
  pageNum: number;
  pageSize: number;
  unread?: boolean;
  category?: SiteMessageCategory;
}) => (await http.get<{ data: SiteMessagesPage }>('/userMessages', query)).data;

/** Marks the messages named, or all of them; answers the unread count left. */
export const markMessagesRead = async (which: { ids: number[] } | { all: true }) =>
  (await http.post<{ data: { totalCount: number } }>('/userMessages/read', which, { format: 'json' })).data
    .totalCount;

export type { MessageNotifierInput, MessageSettingInput, MessageSettingsView };

export const fetchMessageSettings = async () =>
  (await http.get<{ data: MessageSettingsView }>('/messageSettings')).data;

export const saveMessageSetting = async (setting: MessageSettingInput) =>
  (await http.post<{ data: MessageSettingsView }>('/messageSettings', setting, { format: 'json' })).data;

export const addMessageNotifier = async (notifier: MessageNotifierInput) =>
  (await http.post<{ data: MessageSettingsView }>('/messageSettings/notifiers', notifier, { format: 'json' }))
    .data;

export const removeMessageNotifier = async (id: number) =>
  (await http.delete<{ data: MessageSettingsView }>(`/messageSettings/notifiers/${id}`)).data;
