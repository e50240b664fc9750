import fs from 'node:fs';
import {
  AUTHENTICATED,
  type ExportChannel,
  exportCreateSchema,
  exportIdSchema,
  exportListQuerySchema,
  PERMISSIONS,
  type PermissionCode,
} from '@herald/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

/** Each channel's exports: its offline screen's calls and the permission code of that screen. */
const CHANNELS: { channel: ExportChannel; base: string; access: PermissionCode }[] = [
  { channel: 'email', base: '/v3/api/data/dataExportOfflines', access: PERMISSIONS.EMAIL_RESPONSE },
  { channel: 'sms', base: '/v3/api/sms/dataExportOfflines', access: PERMISSIONS.SMS_RESPONSE },
];

/**
 * Offline exports (console-spec §7 `/data/dataExportOfflines`: list, download/{id}, invalid/{id};
 * retry and delete), under code 11, and the account's hide-export flag
 * (`/systemParam/hideDeliveryDownloadButton`). A download is a download: view-only callers are
 * refused by the guard, and the account's download verification applies. SMS status exports
 * (`/s_sendResponse/offline`) are the same calls under `/sms/dataExportOfflines` and code 17;
 * each path sees its own channel's exports only.
 */
export function exportsRoutes(app: FastifyInstance, core: Core): void {
  for (const channel of CHANNELS) channelRoutes(app, core, channel);

  app.get(
    '/v3/api/systemParam/hideDeliveryDownloadButton',
    { config: { access: AUTHENTICATED } },
    async (request) => ({
      data: await core.exports.hideExport(callerOf(request)),
    }),
  );
}

function channelRoutes(
  app: FastifyInstance,
  core: Core,
  { channel, base: BASE, access }: (typeof CHANNELS)[number],
): void {
  const exports = core.exports;
  const RESPONSE = { access };
  const idOf = (request: FastifyRequest) => exportIdSchema.parse(request.params).id;

  app.post(BASE, { config: RESPONSE }, async (request, reply) => {
    const input = exportCreateSchema.parse(request.body ?? {});
    return reply
      .status(201)
      .send({ data: await exports.create(callerOf(request), input, request.lang, channel) });
  });

  app.get(BASE, { config: RESPONSE }, async (request) => {
    const { rows, total } = await exports.list(
      callerOf(request),
      exportListQuerySchema.parse(request.query ?? {}),
      channel,
    );
    return { data: rows, total };
  });

  app.get(`${BASE}/download/:id`, { config: { ...RESPONSE, download: true } }, async (request, reply) => {
    const session = callerOf(request);
    const { file, name, size } = await exports.download(
      callerOf(request),
      idOf(request),
      () => core.sensitiveVerification.requireRecentVerification(session, { kind: 'download' }),
      channel,
    );
    return reply
      .header('content-type', 'application/gzip')
      .header('content-length', size)
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(fs.createReadStream(file));
  });

  app.post(`${BASE}/invalid/:id`, { config: RESPONSE }, async (request) => ({
    data: await exports.invalidate(callerOf(request), idOf(request), channel),
  }));

  app.post(`${BASE}/retry/:id`, { config: RESPONSE }, async (request) => ({
    data: await exports.retry(callerOf(request), idOf(request), channel),
  }));

  app.delete(`${BASE}/:id`, { config: RESPONSE }, async (request, reply) => {
    await exports.remove(callerOf(request), idOf(request), channel);
    return reply.status(204).send();
  });
}
