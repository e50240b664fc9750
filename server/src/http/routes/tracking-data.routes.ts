import { emailTracksQuerySchema, PERMISSIONS } from '@herald/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

const RESPONSE = { access: PERMISSIONS.EMAIL_RESPONSE };
const DOWNLOAD = { access: PERMISSIONS.EMAIL_RESPONSE, download: true };

/**
 * The open/click list (console-spec §7 "/data/emailTracks"), under code 11: opens and clicks with
 * the client's address, browser, system and the machine flag, over the last six months at most;
 * the CSV export is a download.
 */
export function trackingDataRoutes(app: FastifyInstance, core: Core): void {
  const tracks = core.emailTracks;
  const filterOf = (request: FastifyRequest) => {
    const query = emailTracksQuerySchema.parse(request.query ?? {});
    return { query, filter: tracks.filterOf(query) };
  };

  app.get('/v3/api/data/emailTracks', { config: RESPONSE }, async (request) => {
    const { query, filter } = filterOf(request);
    const offset = (query.page - 1) * query.pageSize;
    const { rows, total } = await tracks.query(callerOf(request), filter, offset, query.pageSize);
    return { data: rows, total };
  });

  app.get('/v3/api/data/emailTracks/export', { config: DOWNLOAD }, async (request, reply) => {
    const { filter } = filterOf(request);
    const csv = await tracks.exportCsv(callerOf(request), filter);
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="open-click-${day}.csv"`)
      .send(csv);
  });
}
