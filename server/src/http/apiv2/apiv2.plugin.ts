import fastifyMultipart from '@fastify/multipart';
import { API_CREDENTIALS } from '@herald/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { Core } from '../../compose.ts';
import type { KeyCaller } from '../../core/context.ts';
import { toAppError } from '../errors.ts';
import { type Apiv2Params, apiv2Params } from './apiv2-params.ts';
import { failure, ok } from './envelope.ts';

/** The attachments cap of mail/send (40819) plus room for the other fields. */
const MULTIPART_LIMIT = 12 * 1024 * 1024;

export interface Apiv2Call {
  caller: KeyCaller;
  params: Apiv2Params;
  request: FastifyRequest;
}

/** What an /apiv2 handler returns: the envelope's `info`, or a full envelope for a special code. */
export type Apiv2Handler = (call: Apiv2Call) => Promise<Record<string, unknown>>;

/**
 * The SendCloud-compatible API (../shared/reference/sendcloud-api.md), mounted at /apiv2. Every
 * action answers GET and POST with form, query or multipart parameters; every call carries
 * apiUser + apiKey, checked here before the handler runs; every outcome is SendCloud's envelope.
 * Each area registers its actions through `action` in its own file.
 */
export async function registerApiv2(app: FastifyInstance, core: Core, areas: Apiv2Area[]): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      attachFieldsToBody: true,
      limits: { fileSize: MULTIPART_LIMIT, files: 50, fields: 200 },
    });
    scope.setErrorHandler((error, request, reply) => answerFailure(request, reply, error));
    const action = (path: string, handler: Apiv2Handler, options: RouteShorthandOptions = {}) => {
      scope.route({
        method: ['GET', 'POST'],
        url: `/apiv2/${path}`,
        ...options,
        config: { ...(options.config ?? {}), access: API_CREDENTIALS },
        handler: async (request) => {
          const params = apiv2Params(request);
          const caller = await core.apiUserAuth.authenticate(
            params.fields.apiUser ?? '',
            params.fields.apiKey ?? '',
            request.ip,
          );
          return ok(request.lang, await handler({ caller, params, request }));
        },
      });
    };
    for (const area of areas) area(action, core);
  });
}

export type Apiv2Action = (path: string, handler: Apiv2Handler, options?: RouteShorthandOptions) => void;
export type Apiv2Area = (action: Apiv2Action, core: Core) => void;

function answerFailure(request: FastifyRequest, reply: FastifyReply, thrown: unknown) {
  const error = toAppError(thrown);
  if (error.status >= 500) request.log.error({ err: thrown }, 'apiv2 call failed');
  else request.log.info({ code: error.code }, 'apiv2 call rejected');
  return reply.status(200).send(failure(error, request.lang));
}
