import { PUBLIC } from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import type { Core } from '../../compose.ts';
import { ALIPAY_NOTIFY_PATH, PAYPAL_WEBHOOK_PATH } from '../../core/recharges/recharges.service.ts';

const PUBLIC_ROUTE = { access: PUBLIC };
const BODY_LIMIT = 256 * 1024;

/**
 * The payment providers' callbacks (no login; what they carry is believed only once verified):
 *   POST ALIPAY_NOTIFY_PATH  Alipay's asynchronous notify, a form in the request's charset;
 *                            answered with the bare text `success` once handled (Alipay resends
 *                            on anything else, reference §1.6);
 *   POST PAYPAL_WEBHOOK_PATH PayPal's webhook, JSON read as the raw text it was signed over;
 *                            answered 200 once handled (PayPal retries anything else, §2.5).
 */
export function paymentsRoutes(app: FastifyInstance, core: Core): void {
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_request, body, done) =>
      done(null, String(body)),
    );

    scope.post(ALIPAY_NOTIFY_PATH, { config: PUBLIC_ROUTE }, async (request, reply) => {
      const fields = Object.fromEntries(new URLSearchParams(String(request.body ?? '')));
      const answer = await core.recharges.alipayNotify(fields);
      return reply.status(200).type('text/plain; charset=utf-8').send(answer);
    });

    scope.post(PAYPAL_WEBHOOK_PATH, { config: PUBLIC_ROUTE }, async (request, reply) => {
      const raw = String(request.body ?? '');
      let status = 400;
      try {
        JSON.parse(raw);
        status = await core.recharges.paypalWebhook(request.headers, raw);
      } catch (error) {
        if (!(error instanceof SyntaxError)) throw error;
      }
      return reply.status(status).send();
    });
  });
}
