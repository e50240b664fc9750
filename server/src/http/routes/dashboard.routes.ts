import { PERMISSIONS } from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { TREND_DAYS } from '../../core/dashboard/dashboard.service.ts';
import { callerOf } from '../context.ts';

const DASHBOARD = { access: PERMISSIONS.DASHBOARD };
const overviewQuery = z.object({
  days: z.preprocess(
    (v) => (v === undefined || v === '' ? 7 : Number(v)),
    z.union(TREND_DAYS.map((d) => z.literal(d))),
  ),
});

/** The dashboard (`/backend/dashborad`, code 20): the beginner guide and the figures. */
export function dashboardRoutes(app: FastifyInstance, core: Core): void {
  app.get('/v3/api/dashboard/guide', { config: DASHBOARD }, async (request) => ({
    data: await core.dashboard.guide(callerOf(request)),
  }));

  app.get('/v3/api/dashboard/overview', { config: DASHBOARD }, async (request) => {
    const { days } = overviewQuery.parse(request.query ?? {});
    return { data: await core.dashboard.overview(callerOf(request), days) };
  });

  // The SMS dashboard (`/backend/s_dashborad`, the same code 20).
  app.get('/v3/api/dashboard/smsGuide', { config: DASHBOARD }, async (request) => ({
    data: await core.dashboard.smsGuide(callerOf(request)),
  }));

  app.get('/v3/api/dashboard/smsOverview', { config: DASHBOARD }, async (request) => {
    const { days } = overviewQuery.parse(request.query ?? {});
    return { data: await core.dashboard.smsOverview(callerOf(request), days) };
  });
}
