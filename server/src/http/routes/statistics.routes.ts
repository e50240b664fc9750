import {
  monitorConfigIdSchema,
  PERMISSIONS,
  STAT_COUNTERS,
  STAT_RANGE_PRESETS,
  statRates,
} from '@herald/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

const DATA = { access: PERMISSIONS.EMAIL_DATA };
const DOWNLOAD = { access: PERMISSIONS.EMAIL_DATA, download: true };
const idParam = z.object({ id: monitorConfigIdSchema });

const RATE_KEYS = Object.keys(statRates({ requested: 0 } as never));

/**
 * The email data centre (console-spec §7 "/stat/*", "/user/UserReputationDetail"), under code 10.
 * Every figure is read from the statistics rollups; every query takes a range preset or
 * from/to (Asia/Shanghai days, at most 6 months back) and the filters of statQuerySchema.
 */
export function statisticsRoutes(app: FastifyInstance, core: Core): void {
  const stats = core.statistics;
  const query = (request: FastifyRequest) => stats.parseQuery(request.query);

  app.get('/v3/api/stat/send', { config: DATA }, async (request) => ({
    data: await stats.sendSeries(callerOf(request), query(request)),
  }));

  app.get('/v3/api/stat/send/export', { config: DOWNLOAD }, async (request, reply: FastifyReply) => {
    const q = query(request);
    const { points } = await stats.sendSeries(callerOf(request), q);
    const columns = ['day', ...(q.groupBy === 'hour' ? ['hour'] : []), ...STAT_COUNTERS, ...RATE_KEYS];
    const lines = [
      columns.join(','),
      ...points.map((p) => columns.map((c) => p[c as keyof typeof p] ?? '').join(',')),
    ];
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="send-data-${q.from}-${q.to}.csv"`)
      .send(`${lines.join('\n')}\n`);
  });

  app.get('/v3/api/stat/deliveryTime', { config: DATA }, async (request) => ({
    data: await stats.deliveryTime(callerOf(request), query(request)),
  }));

  app.get('/v3/api/stat/receiveDomain', { config: DATA }, async (request) => ({
    data: await stats.receiveDomains(callerOf(request), query(request)),
  }));

  app.get('/v3/api/stat/invalid', { config: DATA }, async (request) => ({
    data: await stats.invalidReasons(callerOf(request), query(request)),
  }));

  app.get('/v3/api/stat/overview', { config: DATA }, async (request) => ({
    data: await stats.overview(callerOf(request), query(request)),
  }));

  app.get('/v3/api/stat/monitor', { config: DATA }, async (request) => ({
    data: await stats.monitor(callerOf(request), query(request)),
  }));

  app.get('/v3/api/stat/monitorConfigs', { config: DATA }, async (request) => ({
    data: await stats.monitorConfigs.list(callerOf(request)),
  }));

  app.post('/v3/api/stat/monitorConfigs', { config: DATA }, async (request, reply) =>
    reply
      .status(201)
      .send({ data: await stats.monitorConfigs.create(callerOf(request), request.body ?? {}) }),
  );

  app.patch('/v3/api/stat/monitorConfigs/:id', { config: DATA }, async (request) => ({
    data: await stats.monitorConfigs.update(
      callerOf(request),
      idParam.parse(request.params).id,
      request.body ?? {},
    ),
  }));

  app.delete('/v3/api/stat/monitorConfigs/:id', { config: DATA }, async (request, reply) => {
    await stats.monitorConfigs.remove(callerOf(request), idParam.parse(request.params).id);
    return reply.status(204).send();
  });

  /** The reputation score, yesterday's counts and the daily history (up to a year). */
  app.get('/v3/api/user/UserReputationDetail', { config: DATA }, async (request) => {
    const input = (request.query ?? {}) as Record<string, string>;
    const q = stats.parseQuery(input.preset || input.from ? input : { preset: 'last30' }, STAT_RANGE_PRESETS);
    return { data: await stats.reputationDetail(callerOf(request), q) };
  });
}
