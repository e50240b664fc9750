import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { fetchSubscription } from '../../../api/subscriptions.api.ts';

/** The subscription named by the screen's `?id=`; `id` is null when the URL names none. */
export function useSubscription() {
  const [params] = useSearchParams();
  const raw = Number(params.get('id'));
  const id = Number.isInteger(raw) && raw > 0 ? raw : null;
  const subscription = useQuery({
    queryKey: ['subscription', id],
    queryFn: () => fetchSubscription(id as number),
    enabled: id !== null,
    retry: false,
  });
  return { id, subscription };
}
