import type {
  DashboardOverview,
  DayTotals,
  Guide,
  GuideStep,
} from '@herald/shared/schemas/statistics.schema';
import { http } from '../../../infra/http/http-client.ts';

export type { DashboardOverview, DayTotals, Guide, GuideStep };

export const fetchGuide = async () => (await http.get<{ data: Guide }>('/dashboard/guide')).data;

export const fetchOverview = async (days: 7 | 30) =>
  (await http.get<{ data: DashboardOverview }>('/dashboard/overview', { days })).data;
