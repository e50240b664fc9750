import type {
  DashboardOverview,
  DayTotals,
  Guide,
  GuideStep,
  SmsDashboardOverview,
  SmsGuide,
  SmsGuideStep,
} from '@herald/shared/schemas/statistics.schema';
import { http } from '../../../infra/http/http-client.ts';

export type { DashboardOverview, DayTotals, Guide, GuideStep, SmsGuideStep };

export const fetchGuide = async () => (await http.get<{ data: Guide }>('/dashboard/guide')).data;

export const fetchOverview = async (days: 7 | 30) =>
  (await http.get<{ data: DashboardOverview }>('/dashboard/overview', { days })).data;

export const fetchSmsGuide = async () => (await http.get<{ data: SmsGuide }>('/dashboard/smsGuide')).data;

export const fetchSmsOverview = async (days: 7 | 30) =>
  (await http.get<{ data: SmsDashboardOverview }>('/dashboard/smsOverview', { days })).data;
