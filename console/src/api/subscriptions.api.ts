import type {
  PublicSubscriptionView,
  SubscribeInput,
  SubscribeResult,
  SubscriptionDisplayMode,
  SubscriptionInput,
  SubscriptionsPage,
  SubscriptionUpdateInput,
  SubscriptionView,
} from '@herald/shared/schemas/subscription.schema';
import { http } from '../infra/http/http-client.ts';

/** Email subscriptions (console-spec §7 `/subInvite/*`) and the public page's calls. */
export type { SubscriptionView };

interface DataBody<T> {
  data: T;
}

const BASE = '/subInvite';
const json = { format: 'json' } as const;

export const fetchSubscriptions = async (query: { name?: string; pageNum: number; pageSize: number }) =>
  (await http.get<DataBody<SubscriptionsPage>>(BASE, query)).data;

export const fetchSubscription = async (id: number) =>
  (await http.get<DataBody<SubscriptionView>>(`${BASE}/${id}`)).data;

export const createSubscription = async (input: SubscriptionInput) =>
  (await http.post<DataBody<SubscriptionView>>(BASE, { ...input }, json)).data;

export const updateSubscription = async (id: number, input: SubscriptionUpdateInput) =>
  (await http.put<DataBody<SubscriptionView>>(`${BASE}/${id}`, { ...input }, json)).data;

export const deleteSubscription = (id: number) => http.delete(`${BASE}/${id}`);

export const fetchPublicSubscription = async (id: string) =>
  (await http.get<DataBody<PublicSubscriptionView>>('/access/subInvite/page', { id })).data;

export const postSubscribe = async (input: SubscribeInput) =>
  (await http.post<DataBody<SubscribeResult>>('/access/subInvite/subscribe', { ...input }, json)).data;

/** The snippet a customer pastes into their site. */
export const snippetOf = (publicId: string) =>
  `<script src="${window.location.origin}/subscribe/embed.js?id=${encodeURIComponent(publicId)}" async></script>`;

/** The public subscription page (what the snippet shows), in a given mode or the saved one. */
export const inviteUrlOf = (publicId: string, mode?: SubscriptionDisplayMode) =>
  `${window.location.origin}/subscriptionInvite?id=${encodeURIComponent(publicId)}${mode ? `&mode=${mode}` : ''}`;

/** The snippet's script showing the subscription in `mode` instead of its own (the sample page /preview). */
export const embedScriptUrlOf = (publicId: string, mode: SubscriptionDisplayMode) =>
  `/subscribe/embed.js?id=${encodeURIComponent(publicId)}&mode=${mode}`;
