import { http } from '../../../infra/http/http-client.ts';

/** The dashboard's calls (`/dashboard/guide`, `/dashboard/overview`), code 20. */
export type GuideStep = 'testMail' | 'domain' | 'apiUser' | 'integrate';

export interface Guide {
  steps: { key: GuideStep; done: boolean }[];
  done: number;
}

export interface DayTotals {
  day: string;
  requested: number;
  delivered: number;
  opened: number;
  clicked: number;
  uniqueOpened: number;
  uniqueClicked: number;
  softBounced: number;
  invalid: number;
  spamReported: number;
  unsubscribed: number;
}

export interface Overview {
  today: DayTotals;
  series: DayTotals[];
  reputation: {
    score: number;
    yesterday: { delivered: number; opened: number; clicked: number; invalid: number; spamReported: number };
  };
  alerts: {
    addresses: { recipient: string; requests: number }[];
    domains: { domain: string; requests: number; usual: number }[];
  };
}

export const fetchGuide = async () => (await http.get<{ data: Guide }>('/dashboard/guide')).data;

export const fetchOverview = async (days: 7 | 30) =>
  (await http.get<{ data: Overview }>('/dashboard/overview', { days })).data;
