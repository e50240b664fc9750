import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import { AppError, PUBLIC } from '@herald/shared';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import type { Core } from '../compose.ts';
import {
  type Apiv2Area,
  apiv2Refusal,
  apiv2Url,
  isApiv2,
  registerApiv2,
  unknownAction,
} from './apiv2/apiv2.plugin.ts';
import { APIV2_AREAS } from './apiv2/areas.ts';
import { callerOf } from './context.ts';
import { apiDocsRoutes } from './docs/api-docs.routes.ts';
import { guidesRoutes } from './docs/guides/guides.routes.ts';
import { sendError } from './errors.ts';
import { type Authenticator, type RouteEntry, registerAccess } from './plugins/access.ts';
import { registerApiClientErrors } from './plugins/api-client-errors.ts';
import { registerBrowserSafety } from './plugins/browser-safety.ts';
import { registerLanguage } from './plugins/language.ts';
import { registerRateLimit } from './plugins/rate-limit.ts';
import { sessionAuthenticator, sessionTokenOf } from './plugins/session-auth.ts';
import { paymentsRoutes } from './public/payments.routes.ts';
import { subscribeRoutes } from './public/subscribe.routes.ts';
import { unsubscribeLinkRoutes } from './public/unsubscribe-link.routes.ts';
import { addressListsRoutes } from './routes/address-lists.routes.ts';
import { adminAccountsRoutes } from './routes/admin-accounts.routes.ts';
import { adminLedgerRoutes } from './routes/admin-ledger.routes.ts';
import { adminSmsBlocklistRoutes } from './routes/admin-sms-blocklist.routes.ts';
import { adminSmsCarriersRoutes } from './routes/admin-sms-carriers.routes.ts';
import { adminSmsPricesRoutes } from './routes/admin-sms-prices.routes.ts';
import { adminSmsReviewRoutes } from './routes/admin-sms-review.routes.ts';
import { adminTemplatesRoutes } from './routes/admin-templates.routes.ts';
import { apiUsersRoutes } from './routes/api-users.routes.ts';
import { captchaRoutes } from './routes/captcha.routes.ts';
import { dashboardRoutes } from './routes/dashboard.routes.ts';
import { dedicatedIpsRoutes } from './routes/dedicated-ips.routes.ts';
import { domainsRoutes } from './routes/domains.routes.ts';
import { emailStatusRoutes } from './routes/email-status.routes.ts';
import { exportsRoutes } from './routes/exports.routes.ts';
import { integrationRoutes } from './routes/integration.routes.ts';
import { invoicesRoutes } from './routes/invoices.routes.ts';
import { ipWhitelistRoutes } from './routes/ip-whitelist.routes.ts';
import { labelsRoutes, smsLabelsRoutes } from './routes/labels.routes.ts';
import { loginVerifyRoutes } from './routes/login-verify.routes.ts';
import { mailRoutesRoutes } from './routes/mail-routes.routes.ts';
import { membersRoutes } from './routes/members.routes.ts';
import { oauthRoutes } from './routes/oauth.routes.ts';
import { opsRoutes } from './routes/ops.routes.ts';
import { profileRoutes } from './routes/profile.routes.ts';
import { queuesRoutes } from './routes/queues.routes.ts';
import { rechargesRoutes } from './routes/recharges.routes.ts';
import { registerRoutes } from './routes/register.routes.ts';
import { securitySettingsRoutes } from './routes/security-settings.routes.ts';
import { senderConfigsRoutes } from './routes/sender-configs.routes.ts';
import { siteMessagesRoutes } from './routes/site-messages.routes.ts';
import { smsContactsRoutes } from './routes/sms-contacts.routes.ts';
import { smsContentViewRoutes } from './routes/sms-content-view.routes.ts';
import { smsFilingRoutes } from './routes/sms-filing.routes.ts';
import { smsGatewayUsersRoutes } from './routes/sms-gateway-users.routes.ts';
import { smsHooksRoutes } from './routes/sms-hooks.routes.ts';
import { smsInterceptionRoutes } from './routes/sms-interception.routes.ts';
import { smsLinksRoutes } from './routes/sms-links.routes.ts';
import { smsMessagesRoutes } from './routes/sms-messages.routes.ts';
import { smsPausesRoutes } from './routes/sms-pauses.routes.ts';
import { smsPricesRoutes } from './routes/sms-prices.routes.ts';
import { smsRepliesRoutes } from './routes/sms-replies.routes.ts';
import { smsSignsRoutes } from './routes/sms-signs.routes.ts';
import { smsTasksRoutes } from './routes/sms-tasks.routes.ts';
import { smsTemplatesRoutes } from './routes/sms-templates.routes.ts';
import { smsUsersRoutes } from './routes/sms-users.routes.ts';
import { statisticsRoutes } from './routes/statistics.routes.ts';
import { subscriptionsRoutes } from './routes/subscriptions.routes.ts';
import { suppressionRoutes } from './routes/suppression.routes.ts';
import { templatesRoutes } from './routes/templates.routes.ts';
import { testSendRoutes } from './routes/test-send.routes.ts';
import { timedTasksRoutes } from './routes/timed-tasks.routes.ts';
import { trackingRoutes } from './routes/tracking.routes.ts';
import { trackingDataRoutes } from './routes/tracking-data.routes.ts';
import { trackingDomainsRoutes } from './routes/tracking-domains.routes.ts';
import { tradeRoutes } from './routes/trade.routes.ts';
import { unsubscribePageRoutes } from './routes/unsubscribe-page.routes.ts';
import { userInfoRoutes } from './routes/user-info.routes.ts';
import { verifyRoutes } from './routes/verify.routes.ts';
import { vouchersRoutes } from './routes/vouchers.routes.ts';
import { webhooksRoutes } from './routes/webhooks.routes.ts';
import { wechatRoutes } from './routes/wechat.routes.ts';
import { registerSmsapi, smsapiRefusal } from './smsapi/smsapi.plugin.ts';
import { registerWebapi, webapiRefusal } from './webapi/webapi.plugin.ts';

export interface HttpAppOptions {
  /** Serve the console API and the console itself (the api role); otherwise only ops endpoints. */
  api: boolean;
  authenticate?: Authenticator;
  /** The /apiv2 areas to mount; every area unless a test names its own. */
  apiv2Areas?: Apiv2Area[];
}

export interface HttpApp {
  app: FastifyInstance;
  /** Every route with its declared access, for the drift test and operators. */
  routes: RouteEntry[];
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;
/** Paths that are API calls: an unknown one answers JSON 404, never the console page. */
const API_PREFIXES = ['/v3/', '/apiv2/', '/webapi/', '/smsapi/'];

export async function buildHttpApp(core: Core, options: HttpAppOptions): Promise<HttpApp> {
  const routes: RouteEntry[] = [];
  const app = Fastify({
    loggerInstance: core.logger.child({ listener: 'http' }) as FastifyBaseLogger,
    bodyLimit: 12 * 1024 * 1024,
    requestIdHeader: false,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    // Forwarded headers only from the proxies the operator named (HERALD_TRUSTED_PROXIES): trusted
    // blindly, any client could pick its own address and slip past the IP whitelist and rate limits.
    trustProxy: core.config.http.trustedProxies.length > 0 ? core.config.http.trustedProxies : false,
    rewriteUrl: (request) => apiv2Url(request.url ?? '/'),
  });

  await app.register(fastifyCookie);
  await app.register(fastifyFormbody);
  registerLanguage(app);
  registerBrowserSafety(app, { publicUrl: core.config.publicUrl });
  registerAccess(app, options.authenticate ?? sessionAuthenticator(core.sessions, core.ipWhitelist), routes);
  registerRateLimit(app, core.rateLimiter);
  // Downloads (route config `download: true`) ask for the account's download verification when
  // the user switched it on, whatever route serves them. A caller without a session token is one
  // the access check already let through without a login (none of these routes).
  app.addHook('preHandler', async (request) => {
    if (request.routeOptions.config.download !== true || !sessionTokenOf(request)) return;
    await core.sensitiveVerification.requireRecentVerification(callerOf(request), { kind: 'download' });
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    core.metrics.httpDuration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });

  app.setErrorHandler((error, request, reply) => sendError(request, reply, error));

  const indexHtml = options.api ? await registerConsole(app, core) : undefined;
  app.setNotFoundHandler((request, reply) => {
    const isApi = API_PREFIXES.some((prefix) => request.url.startsWith(prefix));
    const wantsPage = request.method === 'GET' && (request.headers.accept ?? '').includes('text/html');
    if (indexHtml && !isApi && wantsPage) return sendPage(reply, indexHtml);
    if (options.api && isApiv2(request.url)) return unknownAction(request, reply);
    return sendError(request, reply, new AppError('COMMON_ROUTE_NOT_FOUND'));
  });

  opsRoutes(app, core);
  if (options.api) {
    oauthRoutes(app, core);
    registerRoutes(app, core);
    profileRoutes(app, core);
    captchaRoutes(app, core);
    userInfoRoutes(app, core);
    membersRoutes(app, core);
    loginVerifyRoutes(app, core);
    verifyRoutes(app, core);
    securitySettingsRoutes(app, core);
    ipWhitelistRoutes(app, core);
    wechatRoutes(app, core);
    apiUsersRoutes(app, core);
    labelsRoutes(app, core);
    domainsRoutes(app, core);
    templatesRoutes(app, core);
    testSendRoutes(app, core);
    senderConfigsRoutes(app, core);
    queuesRoutes(app, core);
    adminTemplatesRoutes(app, core);
    adminAccountsRoutes(app, core);
    adminLedgerRoutes(app, core);
    rechargesRoutes(app, core);
    dedicatedIpsRoutes(app, core);
    vouchersRoutes(app, core);
    siteMessagesRoutes(app, core);
    invoicesRoutes(app, core);
    tradeRoutes(app, core);
    paymentsRoutes(app, core);
    integrationRoutes(app, core);
    smsUsersRoutes(app, core);
    smsGatewayUsersRoutes(app, core);
    smsSignsRoutes(app, core);
    smsTemplatesRoutes(app, core);
    smsFilingRoutes(app, core);
    adminSmsReviewRoutes(app, core);
    adminSmsCarriersRoutes(app, core);
    smsMessagesRoutes(app, core);
    smsPausesRoutes(app, core);
    smsRepliesRoutes(app, core);
    smsLinksRoutes(app, core);
    smsContentViewRoutes(app, core);
    smsPricesRoutes(app, core);
    mailRoutesRoutes(app, core);
    adminSmsPricesRoutes(app, core);
    adminSmsBlocklistRoutes(app, core);
    smsHooksRoutes(app, core);
    smsLabelsRoutes(app, core);
    smsInterceptionRoutes(app, core);
    smsContactsRoutes(app, core);
    addressListsRoutes(app, core);
    smsTasksRoutes(app, core);
    timedTasksRoutes(app, core);
    emailStatusRoutes(app, core);
    suppressionRoutes(app, core);
    webhooksRoutes(app, core);
    exportsRoutes(app, core);
    dashboardRoutes(app, core);
    unsubscribePageRoutes(app, core);
    unsubscribeLinkRoutes(app, core);
    subscriptionsRoutes(app, core);
    subscribeRoutes(app, core);
    statisticsRoutes(app, core);
    trackingRoutes(app, core);
    trackingDomainsRoutes(app, core);
    trackingDataRoutes(app, core);
    await registerApiv2(app, core, options.apiv2Areas ?? APIV2_AREAS);
    await registerWebapi(app, core, options.apiv2Areas ?? APIV2_AREAS);
    await registerSmsapi(app, core);
    registerApiClientErrors(app, [
      { prefix: '/apiv2/', refuse: apiv2Refusal },
      { prefix: '/webapi/', refuse: webapiRefusal },
      { prefix: '/smsapi/', refuse: smsapiRefusal },
    ]);
    apiDocsRoutes(app, core, options.apiv2Areas ?? APIV2_AREAS);
    guidesRoutes(app, core);
  }
  return { app, routes };
}

/**
 * The built console (console/dist) as static files; any other page path gets index.html so the
 * console's router can take it (it shows its own 404 for unknown paths).
 */
async function registerConsole(app: FastifyInstance, core: Core): Promise<string | undefined> {
  const indexFile = path.join(core.config.consoleDir, 'index.html');
  if (!fs.existsSync(indexFile)) {
    core.logger.warn({ consoleDir: core.config.consoleDir }, 'console is not built; run `npm run build`');
    return undefined;
  }
  await app.register(fastifyStatic, {
    root: core.config.consoleDir,
    wildcard: false,
    index: false,
    // The build writes each text asset beside itself as .br and .gz (console/vite.config.ts).
    preCompressed: true,
    maxAge: '1h',
    setHeaders(reply, filePath) {
      if (filePath.includes(`${path.sep}assets${path.sep}`)) {
        reply.header('cache-control', 'public, max-age=31536000, immutable');
      }
    },
  });
  const html = fs.readFileSync(indexFile, 'utf8');
  app.get('/', { config: { access: PUBLIC } }, async (_request, reply) => sendPage(reply, html));
  return html;
}

/** The console's page: asked for again on every visit (no-cache), so a new build reaches everyone. */
function sendPage(reply: FastifyReply, html: string) {
  return reply.header('cache-control', 'no-cache').type('text/html').send(html);
}
