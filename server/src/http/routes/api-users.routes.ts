import {
  type ApiUserOption,
  apiKeyResetSchema,
  apiUserCreateSchema,
  apiUserEmailTypeSchema,
  apiUserIdSchema,
  apiUserNameSchema,
  apiUserSenderSchema,
  apiUserUpdateSchema,
  DEFAULT_SENDER_PATHS,
  PERMISSIONS,
} from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

const SETTINGS = { access: PERMISSIONS.EMAIL_SETTINGS };
const idParam = z.object({ id: apiUserIdSchema });
const listQuery = z.object({ emailType: apiUserEmailTypeSchema.optional() });

/**
 * API_USERs (console-spec §7 "/config/categories", "/config/apikeys"), all under code 13. The
 * key is in the body of a creation and of a reset only; lists carry the last four characters.
 * `domains` lists the sending domains an API_USER may be bound to (usable or verified).
 */
export function apiUsersRoutes(app: FastifyInstance, core: Core): void {
  const apiUsers = core.apiUsers;

  app.get('/v3/api/config/categories', { config: SETTINGS }, async (request) => ({
    data: await apiUsers.list(callerOf(request), listQuery.parse(request.query)),
  }));

  app.get('/v3/api/config/categories/all', { config: SETTINGS }, async (request) => ({
    data: (await apiUsers.list(callerOf(request))).map(({ id, name, emailType }) => ({
      id,
      name,
      emailType,
    })),
  }));

  app.get('/v3/api/config/categories/combobox', { config: SETTINGS }, async (request) => ({
    data: (await apiUsers.list(callerOf(request), listQuery.parse(request.query))).map(
      (u): ApiUserOption => ({
        value: u.id,
        label: u.name,
        emailType: u.emailType,
      }),
    ),
  }));

  app.get('/v3/api/config/categories/check', { config: SETTINGS }, async (request) => {
    const { name } = z.object({ name: apiUserNameSchema }).parse(request.query);
    return { data: { available: await apiUsers.isNameAvailable(name) } };
  });

  app.get('/v3/api/config/categories/domains', { config: SETTINGS }, async (request) => ({
    data: await apiUsers.bindableDomains(callerOf(request)),
  }));

  for (const [path, kind] of Object.entries(DEFAULT_SENDER_PATHS)) {
    app.get(`/v3/api/config/categories/${path}`, { config: SETTINGS }, async (request) => ({
      data: (await apiUsers.senders(callerOf(request)))[kind],
    }));
    app.put(`/v3/api/config/categories/${path}`, { config: SETTINGS }, async (request) => {
      const { apiUserId } = apiUserSenderSchema.parse(request.body ?? {});
      return { data: await apiUsers.setSender(callerOf(request), kind, apiUserId) };
    });
  }

  app.get('/v3/api/config/categories/:id', { config: SETTINGS }, async (request) => ({
    data: await apiUsers.get(callerOf(request), idParam.parse(request.params).id),
  }));

  app.post('/v3/api/config/categories', { config: SETTINGS }, async (request, reply) => {
    const input = apiUserCreateSchema.parse(request.body ?? {});
    return reply.status(201).send({ data: await apiUsers.create(callerOf(request), input) });
  });

  app.patch('/v3/api/config/categories/:id', { config: SETTINGS }, async (request) => {
    const { id } = idParam.parse(request.params);
    return {
      data: await apiUsers.update(callerOf(request), id, apiUserUpdateSchema.parse(request.body ?? {})),
    };
  });

  app.delete('/v3/api/config/categories/:id', { config: SETTINGS }, async (request, reply) => {
    await apiUsers.remove(callerOf(request), idParam.parse(request.params).id);
    return reply.status(204).send();
  });

  app.post('/v3/api/config/apikeys', { config: SETTINGS }, async (request, reply) => {
    const input = apiKeyResetSchema.parse(request.body ?? {});
    return reply.status(201).send({ data: await apiUsers.resetKey(callerOf(request), input) });
  });
}
