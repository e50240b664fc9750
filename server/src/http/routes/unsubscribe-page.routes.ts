import {
  PERMISSIONS,
  type UnsubscribePagePreview,
  unsubscribeConfigInputSchema,
  unsubscribePageIdSchema,
  unsubscribePageInputSchema,
} from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

const SETTINGS = { access: PERMISSIONS.EMAIL_SETTINGS };
const idParam = z.object({ id: unsubscribePageIdSchema });
const PAGE = '/v3/api/config/unsubscribePage';

/**
 * The unsubscribe page designer (console-spec §7 "/config/unsubscribePage; /config/unsubscribeConfig"),
 * under code 13: the account's designs (list, get, add, edit, delete), the page as recipients see
 * it (`/{id}/preview`, and `/preview` of an unsaved draft for the designer's live preview), and
 * which design is in use for the account or one API_USER.
 */
export function unsubscribePageRoutes(app: FastifyInstance, core: Core): void {
  const pages = core.unsubscribePages;

  app.get(PAGE, { config: SETTINGS }, async (request) => ({ data: await pages.list(callerOf(request)) }));

  app.get(`${PAGE}/:id`, { config: SETTINGS }, async (request) => ({
    data: await pages.get(callerOf(request), idParam.parse(request.params).id),
  }));

  app.get(`${PAGE}/:id/preview`, { config: SETTINGS }, async (request) => {
    const page = await pages.get(callerOf(request), idParam.parse(request.params).id);
    return { data: { name: page.name, html: pages.preview(page) } satisfies UnsubscribePagePreview };
  });

  // The draft's name is not on the page, so a draft without one still previews.
  app.post(`${PAGE}/preview`, { config: { ...SETTINGS, viewing: true } }, async (request) => {
    const draft = { ...(request.body as object), name: 'preview' };
    const preview: Pick<UnsubscribePagePreview, 'html'> = {
      html: pages.preview(unsubscribePageInputSchema.parse(draft)),
    };
    return { data: preview };
  });

  app.post(PAGE, { config: SETTINGS }, async (request, reply) => {
    const input = unsubscribePageInputSchema.parse(request.body ?? {});
    return reply.status(201).send({ data: await pages.create(callerOf(request), input) });
  });

  app.patch(`${PAGE}/:id`, { config: SETTINGS }, async (request) => {
    const { id } = idParam.parse(request.params);
    const input = unsubscribePageInputSchema.parse(request.body ?? {});
    return { data: await pages.update(callerOf(request), id, input) };
  });

  app.delete(`${PAGE}/:id`, { config: SETTINGS }, async (request, reply) => {
    await pages.remove(callerOf(request), idParam.parse(request.params).id);
    return reply.status(204).send();
  });

  app.get('/v3/api/config/unsubscribeConfig', { config: SETTINGS }, async (request) => ({
    data: await pages.config(callerOf(request)),
  }));

  app.put('/v3/api/config/unsubscribeConfig', { config: SETTINGS }, async (request) => ({
    data: await pages.setConfig(callerOf(request), unsubscribeConfigInputSchema.parse(request.body ?? {})),
  }));
}
