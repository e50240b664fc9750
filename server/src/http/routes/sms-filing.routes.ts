import { PERMISSIONS, smsFilingInputSchema } from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

const SEND = { access: PERMISSIONS.SMS_SEND };

/**
 * The SMS filing (console `/s_sendRelative/guarantee`, code 18): the account's one filing (null
 * before the first submission) and its submission, again after a rejection. The commitment book
 * is uploaded first to `/sms/uploads?purpose=sms_filing`.
 */
export function smsFilingRoutes(app: FastifyInstance, core: Core): void {
  app.get('/v3/api/sms/filing', { config: SEND }, async (request) => ({
    data: await core.smsFilings.get(callerOf(request)),
  }));

  app.post('/v3/api/sms/filing', { config: SEND }, async (request, reply) => {
    const input = smsFilingInputSchema.parse(request.body ?? {});
    return reply.status(201).send({ data: await core.smsFilings.submit(callerOf(request), input) });
  });
}
