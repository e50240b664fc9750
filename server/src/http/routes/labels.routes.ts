import {
  type LabelOption,
  labelIdSchema,
  labelInputSchema,
  PERMISSIONS,
  type PermissionCode,
} from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';
import type { LabelsService } from '../../core/labels/labels.service.ts';
import { callerOf } from '../context.ts';

const idParam = z.object({ id: labelIdSchema });
const listQuery = z.object({ query: z.string().trim().max(255).optional() });

/** Labels (console-spec §7 "/config/labels (CRUD, combobox)"), under code 13. */
export function labelsRoutes(app: FastifyInstance, core: Core): void {
  labelRoutes(app, core.labels, '/v3/api/config/labels', PERMISSIONS.EMAIL_SETTINGS);
}

/** SMS labels (screen `/s_sendSetting/label`), under code 19: the same calls on the SMS channel. */
export function smsLabelsRoutes(app: FastifyInstance, core: Core): void {
  labelRoutes(app, core.smsLabels, '/v3/api/sms/smsLabels', PERMISSIONS.SMS_SETTINGS);
}

/** One channel's labels: list (with a name search), combobox, get, add, rename, delete. */
function labelRoutes(
  app: FastifyInstance,
  labels: LabelsService,
  base: string,
  access: PermissionCode,
): void {
  const config = { access };

  app.get(base, { config }, async (request) => ({
    data: (await labels.list(callerOf(request), listQuery.parse(request.query))).labels,
  }));

  app.get(`${base}/combobox`, { config }, async (request) => ({
    data: (await labels.list(callerOf(request))).labels.map(
      (l): LabelOption => ({ value: l.id, label: l.name }),
    ),
  }));

  app.get(`${base}/:id`, { config }, async (request) => ({
    data: await labels.get(callerOf(request), idParam.parse(request.params).id),
  }));

  app.post(base, { config }, async (request, reply) => {
    const input = labelInputSchema.parse(request.body ?? {});
    return reply.status(201).send({ data: await labels.create(callerOf(request), input) });
  });

  app.patch(`${base}/:id`, { config }, async (request) => {
    const { id } = idParam.parse(request.params);
    return { data: await labels.rename(callerOf(request), id, labelInputSchema.parse(request.body ?? {})) };
  });

  app.delete(`${base}/:id`, { config }, async (request, reply) => {
    await labels.remove(callerOf(request), idParam.parse(request.params).id);
    return reply.status(204).send();
  });
}
