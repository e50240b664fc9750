import { emailStatusQuerySchema, PERMISSIONS } from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import type { Core } from '../../compose.ts';
import { callerOf } from '../context.ts';

/**
 * Email status (`/data/emailStatus`, console-spec §7), under code 11: per-recipient status,
 * reason, sub-status and send log, over at most one month (product-spec §5), a page at a time.
 */
export function emailStatusRoutes(app: FastifyInstance, core: Core): void {
  app.get('/v3/api/data/emailStatus', { config: { access: PERMISSIONS.EMAIL_RESPONSE } }, async (request) => {
    const query = emailStatusQuerySchema.parse(request.query ?? {});
    const { rows, total } = await core.emailStatus.query(callerOf(request), query);
    return { data: rows, total };
  });
}
