import { http } from '../infra/http/http-client.ts';

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
