import fastifyMultipart from '@fastify/multipart';
import { API_CREDENTIALS, AppError, type Lang } from '@herald/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Core } from '../../compose.ts';
import { type Apiv2Area, apiv2Handlers, SENDCLOUD_MULTIPART } from '../apiv2/apiv2.plugin.ts';
import { apiv2Params } from '../apiv2/apiv2-params.ts';
import { failure } from '../apiv2/envelope.ts';
import { toAppError } from '../errors.ts';
import type { RawAnswer } from '../plugins/api-client-errors.ts';
import { V1_CALLS, v1Fields } from './webapi.calls.ts';
import { toXml } from './xml.ts';

type Format = 'json' | 'xml';

/**
 * SendCloud's legacy API v1 (reference §13): `/webapi/<module>.<action>.<json|xml>` with snake_case
 * parameters (`api_user`, `api_key`, `fromname`, `x_smtpapi`, …). A thin adapter: each call renames
 * its parameters, runs the v2 action's own handler (the same service calls, one send path) and
 * reshapes the answer into v1's `{"message":"success", …}` or `{"message":"error","errors":[…]}`,
 * HTTP 200 either way, as JSON or XML as the path asks. Module and action match whatever their
 * case (`queueStatus.get`, `apiUser.list`).
 */
export async function registerWebapi(app: FastifyInstance, core: Core, areas: Apiv2Area[]): Promise<void> {
  const handlers = apiv2Handlers(core, areas);
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, SENDCLOUD_MULTIPART);
    scope.setErrorHandler((error, request, reply) =>
      answer(reply, formatOf(request.url), v1Failure(request, error)),
    );
    scope.route({
      method: ['GET', 'POST'],
      url: '/webapi/:call',
      config: { access: API_CREDENTIALS },
      handler: async (request, reply) => {
        const { call } = request.params as { call: string };
        const match = /^([a-z_]+)\.([a-z_]+)\.(json|xml)$/i.exec(call);
        const format = formatOf(request.url);
        if (!match) {
          const code = /\.(json|xml)$/i.test(call) ? 'API_ACTION_UNKNOWN' : 'API_FORMAT_REQUIRED';
          throw new AppError(code, { action: call.slice(0, 100) });
        }
        const name = `${match[1]}.${match[2]}`.toLowerCase();
        const run = V1_CALLS[name];
        if (!run) throw new AppError('API_ACTION_UNKNOWN', { action: name.slice(0, 100) });
        const params = apiv2Params(request);
        const fields = v1Fields(params.fields);
        const caller = await core.apiUserAuth.authenticate(
          fields.apiUser ?? '',
          fields.apiKey ?? '',
          request.ip,
        );
        const v2 = async (path: string, overrides: Record<string, string> = {}) => {
          const handler = handlers.get(path);
          if (!handler) throw new Error(`webapi: no v2 action ${path}`);
          return handler({
            caller,
            params: { fields: { ...fields, ...overrides }, files: params.files },
            request,
          });
        };
        const body = await run({ caller, fields, lang: request.lang, core, v2 });
        return answer(reply, format, { message: 'success', ...body });
      },
    });
  });
}

function formatOf(url: string): Format {
  return /\.xml(\?|$)/i.test(url) ? 'xml' : 'json';
}

function answer(reply: FastifyReply, format: Format, body: Record<string, unknown>) {
  const { contentType, body: text } = v1Answer(format, body);
  return reply.status(200).type(contentType).send(text);
}

function v1Answer(format: Format, body: Record<string, unknown>): RawAnswer {
  if (format === 'xml') return { contentType: 'application/xml; charset=utf-8', body: toXml(body) };
  return { contentType: 'application/json; charset=utf-8', body: JSON.stringify(body) };
}

/** A /webapi refusal written outside a route (a body that never arrived whole), JSON or XML. */
export function webapiRefusal(url: string, lang: Lang, error: AppError): RawAnswer {
  return v1Answer(formatOf(url), v1Error(error, lang));
}

/** v1's failure: the reason in the caller's language, as the one entry of `errors`. */
function v1Failure(request: FastifyRequest, thrown: unknown): Record<string, unknown> {
  const error = toAppError(thrown, request);
  if (error.status >= 500) request.log.error({ err: thrown }, 'webapi call failed');
  else request.log.info({ code: error.code }, 'webapi call rejected');
  return v1Error(error, request.lang);
}

function v1Error(error: AppError, lang: Lang): Record<string, unknown> {
  return { message: 'error', errors: [failure(error, lang).message] };
}
