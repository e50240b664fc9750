import fastifyMultipart from '@fastify/multipart';
import { API_CREDENTIALS, AppError, type Lang } from '@herald/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Core } from '../../compose.ts';
import type { KeyCaller } from '../../core/context.ts';
import { toAppError } from '../errors.ts';
import type { RawAnswer } from '../plugins/api-client-errors.ts';
import { type ActionDocs, validateParams } from './apiv2-docs.ts';
import { type Apiv2Params, apiv2Params, withLegacyNames } from './apiv2-params.ts';
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
    await scope.register(fastifyMultipart, SENDCLOUD_MULTIPART);
    scope.setErrorHandler((error, request, reply) => answerFailure(request, reply, error));
    for (const { path, handler } of apiv2Actions(core, areas)) {
      scope.route({
        method: ['GET', 'POST'],
        // Registered in lower case; apiv2Url brings every request's action to lower case too.
        url: `/apiv2/${path}`,
        config: { access: API_CREDENTIALS },
        handler: async (request) => {
          const given = apiv2Params(request);
          const params = { ...given, fields: withLegacyNames(given.fields) };
          const caller = await core.apiUserAuth.authenticate(
            params.fields.apiUser ?? '',
            params.fields.apiKey ?? '',
            request.ip,
          );
          return ok(request.lang, await handler({ caller, params, request }));
        },
      });
    }
  });
}

/** One registered action: its lower-case path, its handler (validating first) and what it declares. */
export interface Apiv2ActionEntry {
  path: string;
  handler: Apiv2Handler;
  docs: ActionDocs;
}

/**
 * Every action the areas register, in their order. The handler given here validates the call's
 * parameters with the declared schema before the area's own handler runs.
 */
export function apiv2Actions(core: Core, areas: Apiv2Area[]): Apiv2ActionEntry[] {
  const entries: Apiv2ActionEntry[] = [];
  const action: Apiv2Action = (path, docs, handler) => {
    const validated: Apiv2Handler = async (call) => {
      validateParams(docs.params, call.params.fields);
      return handler(call);
    };
    entries.push({ path: path.toLowerCase(), handler: validated, docs });
  };
  for (const area of areas) area(action, core);
  return entries;
}

/**
 * Every action's handler by its lower-case path, for the legacy /webapi adapter: v1 is another
 * spelling of the same calls, so it runs these very handlers rather than a copy of them.
 */
export function apiv2Handlers(core: Core, areas: Apiv2Area[]): Map<string, Apiv2Handler> {
  return new Map(apiv2Actions(core, areas).map((entry) => [entry.path, entry.handler]));
}

/** The body-size cap and multipart settings the SendCloud APIs share (v2 and legacy v1). */
export const SENDCLOUD_MULTIPART = {
  attachFieldsToBody: true as const,
  limits: { fileSize: MULTIPART_LIMIT, files: 50, fields: 200 },
};

/** Registers one action; `docs` declares its parameters (validated) and its answer (documented). */
export type Apiv2Action = (path: string, docs: ActionDocs, handler: Apiv2Handler) => void;

/**
 * Action paths match whatever their case (the SMS API's too: `sendCode`, `sendVoice`): SendCloud's own documentation spells them `statDay/list`,
 * `apiUser/list`, `data/emailStatus`, and its clients send what it spells. Given to Fastify as
 * `rewriteUrl`: the path of an /apiv2 call (not its query) in lower case, every other URL as it is.
 */
export function apiv2Url(url: string): string {
  if (!/^\/(apiv2|smsapi)\//i.test(url)) return url;
  const query = url.indexOf('?');
  return query < 0 ? url.toLowerCase() : url.slice(0, query).toLowerCase() + url.slice(query);
}

/** Whether a URL is under /apiv2/ (after apiv2Url, in lower case). */
export function isApiv2(url: string): boolean {
  return url.startsWith('/apiv2/');
}

/**
 * An action Herald does not have, answered as SendCloud answers: HTTP 200 and an envelope with an
 * error statusCode, which is what its clients read.
 */
export function unknownAction(request: FastifyRequest, reply: FastifyReply) {
  const action = request.url.slice('/apiv2/'.length).split('?')[0] ?? '';
  const error = new AppError('API_ACTION_UNKNOWN', { action: action.slice(0, 100) });
  request.log.info({ code: error.code }, 'apiv2 call rejected');
  return reply.status(200).send(failure(error, request.lang));
}
export type Apiv2Area = (action: Apiv2Action, core: Core) => void;

/** An /apiv2 refusal written outside a route (a body that never arrived whole): the envelope. */
export function apiv2Refusal(_url: string, lang: Lang, error: AppError): RawAnswer {
  return { contentType: 'application/json; charset=utf-8', body: JSON.stringify(failure(error, lang)) };
}

function answerFailure(request: FastifyRequest, reply: FastifyReply, thrown: unknown) {
  const error = toAppError(thrown, request);
  if (error.status >= 500) request.log.error({ err: thrown }, 'apiv2 call failed');
  else request.log.info({ code: error.code }, 'apiv2 call rejected');
  return reply.status(200).send(failure(error, request.lang));
}
