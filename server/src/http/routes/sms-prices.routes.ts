import { PUBLIC, smsPriceQuerySchema } from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import type { Core } from '../../compose.ts';

/**
 * International SMS prices for everyone (the public site's price query, product-spec §9: up to 5
 * countries at once): the countries and regions with their dialling codes, and the prices asked
 * for, in the reader's language.
 */
export function smsPricesRoutes(app: FastifyInstance, core: Core): void {
  app.get('/v3/api/public/smsCountries', { config: { access: PUBLIC } }, async (request) => ({
    data: core.smsPrices.countries(request.lang),
  }));

  app.get('/v3/api/public/smsPrices', { config: { access: PUBLIC } }, async (request) => {
    const { countries } = smsPriceQuerySchema.parse(request.query ?? {});
    return { data: await core.smsPrices.query(countries, request.lang) };
  });
}
