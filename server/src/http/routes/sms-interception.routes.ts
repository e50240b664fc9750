import {
  PERMISSIONS,
  type SmsBlockKind,
  smsBlockAddSchema,
  smsBlockQuerySchema,
  smsImportSchema,
  smsKeywordSchema,
  splitPhones,
} from '@herald/shared';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

const RESPONSE = { access: PERMISSIONS.SMS_RESPONSE };
const DOWNLOAD = { access: PERMISSIONS.SMS_RESPONSE, download: true };
const idParam = z.object({ id: z.coerce.number().int().positive() });

/**
 * SMS interception in the console (code 17): the account's blocked numbers
 * (`/s_sendResponse/interceptor`, `/sms/interceptor`), unsubscribed numbers (`unsubscribe`,
 * `/sms/unsubscribes`) and filtered keywords (`/sms/keywords`): list, add, delete; import a txt or
 * csv file (all or nothing) and export as CSV, a download (the download verification applies, and
 * view-only callers are refused).
 */
export function smsInterceptionRoutes(app: FastifyInstance, core: Core): void {
  const lists: [string, SmsBlockKind][] = [
    ['/v3/api/sms/interceptor', 'block'],
    ['/v3/api/sms/unsubscribes', 'unsubscribe'],
  ];
  for (const [base, kind] of lists) {
    app.get(base, { config: RESPONSE }, async (request) => {
      const { list, total } = await core.smsInterception.list(
        callerOf(request),
        kind,
        smsBlockQuerySchema.parse(request.query ?? {}),
      );
      return { data: list, total };
    });
    app.post(base, { config: RESPONSE }, async (request, reply) => {
      const input = smsBlockAddSchema.parse(request.body ?? {});
      const result = await core.smsInterception.add(
        callerOf(request),
        kind,
        splitPhones(input.phones),
        input.reason,
      );
      return reply.status(201).send({ data: result });
    });
    app.delete(`${base}/:id`, { config: RESPONSE }, async (request, reply) => {
      await core.smsInterception.remove(callerOf(request), kind, idParam.parse(request.params).id);
      return reply.status(204).send();
    });
    app.post(`${base}/import`, { config: RESPONSE }, async (request, reply) => {
      const file = smsImportSchema.parse(request.body ?? {});
      return reply
        .status(201)
        .send({ data: await core.smsInterception.importFile(callerOf(request), kind, file) });
    });
    app.get(`${base}/export`, { config: DOWNLOAD }, async (request, reply) =>
      sendCsv(reply, `sms-${kind}-list`, await core.smsInterception.exportCsv(callerOf(request), kind)),
    );
  }

  app.post('/v3/api/sms/keywords/import', { config: RESPONSE }, async (request, reply) => {
    const file = smsImportSchema.parse(request.body ?? {});
    return reply
      .status(201)
      .send({ data: await core.smsInterception.importKeywords(callerOf(request), file) });
  });
  app.get('/v3/api/sms/keywords/export', { config: DOWNLOAD }, async (request, reply) =>
    sendCsv(reply, 'sms-keywords', await core.smsInterception.exportKeywordsCsv(callerOf(request))),
  );

  app.get('/v3/api/sms/keywords', { config: RESPONSE }, async (request) => ({
    data: await core.smsInterception.listKeywords(callerOf(request)),
  }));
  app.post('/v3/api/sms/keywords', { config: RESPONSE }, async (request, reply) => {
    const { keyword } = smsKeywordSchema.parse(request.body ?? {});
    return reply
      .status(201)
      .send({ data: await core.smsInterception.addKeyword(callerOf(request), keyword) });
  });
  app.delete('/v3/api/sms/keywords/:id', { config: RESPONSE }, async (request, reply) => {
    await core.smsInterception.removeKeyword(callerOf(request), idParam.parse(request.params).id);
    return reply.status(204).send();
  });
}

function sendCsv(reply: FastifyReply, name: string, csv: string) {
  const day = new Date().toISOString().slice(0, 10);
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}-${day}.csv"`)
    .send(csv);
}
