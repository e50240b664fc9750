import { PLATFORM_OPERATOR, smsPriceInputSchema } from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Core } from '../../compose.ts';

const OPERATOR = { access: PLATFORM_OPERATOR };
const countryParam = z.object({
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/),
});

/**
 * The operators' international SMS prices (/admin/smsCarriers, beside carriers and routes): the
 * same service as the CLI's `sms:price` commands; the public price query reads what is kept here.
 */
export function adminSmsPricesRoutes(app: FastifyInstance, core: Core): void {
  const base = '/v3/api/admin/smsPrices';
  app.get(base, { config: OPERATOR }, async (request) => ({ data: await core.smsPrices.list(request.lang) }));
  app.put(`${base}/:country`, { config: OPERATOR }, async (request) => {
    const { country } = countryParam.parse(request.params);
    const input = smsPriceInputSchema.parse({ ...(request.body as object), country });
    return { data: await core.smsPrices.set(input) };
  });
  app.delete(`${base}/:country`, { config: OPERATOR }, async (request, reply) => {
    await core.smsPrices.remove(countryParam.parse(request.params).country);
    return reply.status(204).send();
  });
}
