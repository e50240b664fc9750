import fs from 'node:fs';
import {
  AUTHENTICATED,
  exportCreateSchema,
  exportIdSchema,
  exportListQuerySchema,
  PERMISSIONS,
} from '@herald/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

const RESPONSE = { access: PERMISSIONS.EMAIL_RESPONSE };
const BASE = '/v3/api/data/dataExportOfflines';

/**
 * Offline exports (console-spec §7 `/data/dataExportOfflines`: list, download/{id}, invalid/{id};
 * retry and delete), under code 11, and the account's hide-export flag
 * (`/systemParam/hideDeliveryDownloadButton`). A download is a download: view-only callers are
 * refused by the guard, and the account's download verification applies.
 */
export function exportsRoutes(app: FastifyInstance, core: Core): void {
  const exports = core.exports;
  const idOf = (request: FastifyRequest) => exportIdSchema.parse(request.params).id;

  app.post(BASE, { config: RESPONSE }, async (request, reply) => {
    const input = exportCreateSchema.parse(request.body ?? {});
    return reply.status(201).send({ data: await exports.create(callerOf(request), input, request.lang) });
  });

  app.get(BASE, { config: RESPONSE }, async (request) => {
    const { rows, total } = await exports.list(
      callerOf(request),
      exportListQuerySchema.parse(request.query ?? {}),
    );
    return { data: rows, total };
  });

  app.get(`${BASE}/download/:id`, { config: { ...RESPONSE, download: true } }, async (request, reply) => {
    const session = callerOf(request);
    const { file, name, size } = await exports.download(callerOf(request), idOf(request), () =>
      core.sensitiveVerification.requireRecentVerification(session, { kind: 'download' }),
    );
    return reply
      .header('content-type', 'application/gzip')
      .header('content-length', size)
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(fs.createReadStream(file));
  });

  app.post(`${BASE}/invalid/:id`, { config: RESPONSE }, async (request) => ({
    data: await exports.invalidate(callerOf(request), idOf(request)),
  }));

  app.post(`${BASE}/retry/:id`, { config: RESPONSE }, async (request) => ({
    data: await exports.retry(callerOf(request), idOf(request)),
  }));

  app.delete(`${BASE}/:id`, { config: RESPONSE }, async (request, reply) => {
    await exports.remove(callerOf(request), idOf(request));
    return reply.status(204).send();
  });

  app.get(
    '/v3/api/systemParam/hideDeliveryDownloadButton',
    { config: { access: AUTHENTICATED } },
    async (request) => ({
      data: await exports.hideExport(callerOf(request)),
    }),
  );
}
