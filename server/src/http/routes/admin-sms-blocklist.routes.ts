import fastifyMultipart from '@fastify/multipart';
import {
  PLATFORM_OPERATOR,
  type SmsImportInput,
  smsBlocklistAddSchema,
  smsBlocklistQuerySchema,
  smsImportSchema,
  splitPhones,
} from '@herald/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';

const OPERATOR = { access: PLATFORM_OPERATOR };
const DOWNLOAD = { access: PLATFORM_OPERATOR, download: true };
const idParam = z.object({ id: z.coerce.number().int().positive() });
/** Above the import's own cap, so a large file is refused by the import's rule and message. */
const UPLOAD_LIMIT = 12 * 1024 * 1024;

/**
 * The platform's global SMS interception list in /admin (`/admin/smsBlocklist`): list with a
 * search by digits and pages, add, delete, import a txt or csv file, export as CSV. The same
 * service as the CLI's `sms:blocklist*` commands. An import arrives as the console sends it
 * (JSON with the file's text), as a multipart upload (a `file` part, an optional `reason`
 * field), or as the file itself in a text/plain or text/csv body (`?filename=&reason=`).
 */
export function adminSmsBlocklistRoutes(app: FastifyInstance, core: Core): void {
  const base = '/v3/api/admin/smsBlocklist';
  app.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      attachFieldsToBody: true,
      limits: { fileSize: UPLOAD_LIMIT, files: 1, fields: 10 },
    });
    scope.addContentTypeParser('text/csv', { parseAs: 'string' }, (_request, body, done) => done(null, body));

    scope.get(base, { config: OPERATOR }, async (request) => {
      const { list, total } = await core.smsBlocklist.list(
        smsBlocklistQuerySchema.parse(request.query ?? {}),
      );
      return { data: list, total };
    });
    scope.post(base, { config: OPERATOR }, async (request, reply) => {
      const input = smsBlocklistAddSchema.parse(request.body ?? {});
      const result = await core.smsBlocklist.add(splitPhones(input.phones), input);
      return reply.status(201).send({ data: result });
    });
    scope.delete(`${base}/:id`, { config: OPERATOR }, async (request, reply) => {
      await core.smsBlocklist.remove(idParam.parse(request.params).id);
      return reply.status(204).send();
    });
    scope.post(`${base}/import`, { config: OPERATOR }, async (request, reply) => {
      const file = smsImportSchema.parse(importBody(request));
      return reply.status(201).send({ data: await core.smsBlocklist.importFile(file) });
    });
    scope.get(`${base}/export`, { config: DOWNLOAD }, async (_request, reply) => {
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="sms-global-block-list-${day}.csv"`)
        .send(await core.smsBlocklist.exportCsv());
    });
  });
}

interface Part {
  type: 'file' | 'field';
  value?: unknown;
  filename?: string;
  _buf?: Buffer;
}

/** The import's file and reason, whichever of the three shapes the request came in. */
function importBody(request: FastifyRequest): Partial<SmsImportInput> {
  const body = request.body;
  const query = (request.query ?? {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  if (typeof body === 'string') {
    const csv = (request.headers['content-type'] ?? '').startsWith('text/csv');
    return {
      filename: text(query.filename) ?? (csv ? 'import.csv' : 'import.txt'),
      content: body,
      reason: text(query.reason),
    };
  }
  if (!request.isMultipart()) return (body ?? {}) as Partial<SmsImportInput>;
  const fields = (body ?? {}) as Record<string, Part | Part[]>;
  const file = Object.values(fields)
    .flat()
    .find((p) => p.type === 'file');
  if (!file) return {};
  const reason = fields.reason;
  return {
    filename: file.filename ?? 'import.txt',
    content: (file._buf ?? Buffer.alloc(0)).toString('utf8'),
    reason: reason && !Array.isArray(reason) ? text(reason.value) : undefined,
  };
}
