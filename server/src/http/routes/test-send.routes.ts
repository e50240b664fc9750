import {
  PERMISSIONS,
  testSendCheckDomainSchema,
  testSendParamSchema,
  testSendQuickSchema,
  testSendTemplateSchema,
} from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

const SEND = { access: PERMISSIONS.EMAIL_SEND };

/**
 * The console's test send (console-spec §2 sendRelative/test), all under code 12 (email
 * sending). A send answers 201 with the message id and its emailIds; `recent` lists the newest
 * recipient records of test sends so the screen can show them with their status.
 */
export function testSendRoutes(app: FastifyInstance, core: Core): void {
  const testSend = core.testSend;

  app.get('/v3/api/mail/testSend/apiUsers', { config: SEND }, async (request) => ({
    data: await testSend.apiUsers(callerOf(request)),
  }));

  app.route({
    method: ['GET', 'POST'],
    url: '/v3/api/mail/testSend/checkCategoryDomain',
    config: SEND,
    handler: async (request) => ({
      data: await testSend.checkDomain(
        callerOf(request),
        testSendCheckDomainSchema.parse(request.method === 'GET' ? request.query : request.body),
      ),
    }),
  });

  for (const action of ['quick', 'mail'] as const) {
    app.post(`/v3/api/mail/testSend/${action}`, { config: SEND }, async (request, reply) =>
      reply
        .status(201)
        .send({ data: await testSend.quick(callerOf(request), testSendQuickSchema.parse(request.body)) }),
    );
  }

  app.post('/v3/api/mail/testSend/param', { config: SEND }, async (request, reply) =>
    reply
      .status(201)
      .send({ data: await testSend.quick(callerOf(request), testSendParamSchema.parse(request.body)) }),
  );

  app.post('/v3/api/mail/testSend/template', { config: SEND }, async (request, reply) =>
    reply
      .status(201)
      .send({ data: await testSend.template(callerOf(request), testSendTemplateSchema.parse(request.body)) }),
  );

  app.get('/v3/api/mail/testSend/recent', { config: SEND }, async (request) => ({
    data: await testSend.recent(callerOf(request)),
  }));
}
