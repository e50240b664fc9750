import type { Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { SMTPServer } from 'smtp-server';
import { type Core, createCore } from './compose.ts';
import type { Config } from './config.ts';
import { type RunningGateway, startGateway } from './gateway/start-gateway.ts';
import { buildHttpApp } from './http/app.ts';
import { listenTrackingHttps } from './http/tracking/tracking-https.ts';
import type { Logger } from './logger.ts';
import { createInboundServer } from './smtp/inbound-server.ts';
import { closeSmtp, listenSmtp } from './smtp/listen.ts';
import { submissionListeners } from './smtp/submission-server.ts';
import { startWorkers, type Workers } from './worker/start-workers.ts';

export interface RunningHerald {
  core: Core;
  urls: { http: string; smtpSubmission?: string; smtpInbound?: string; cmpp?: string; smpp?: string };
  stop(): Promise<void>;
}

/**
 * Starts the roles the configuration asks for, on one core. Every process also serves
 * /healthz, /readyz and /metrics on its HTTP port; the console API and pages only with `api`.
 * Stopping is in order: stop accepting (HTTP, SMTP), let workers finish or hand back their
 * jobs, deregister, close the queue and the database.
 */
export async function startHerald(config: Config, logger: Logger): Promise<RunningHerald> {
  const core = await createCore(config, logger);
  await core.nodes.register(config.roles, config.hostname);

  const { app } = await buildHttpApp(core, { api: config.roles.has('api') });
  // Fastify would log its own "Server listening" line; Herald logs one line per listener itself.
  const level = app.log.level;
  app.log.level = 'warn';
  await app.listen({ host: config.http.host, port: config.http.port });
  app.log.level = level;
  const httpUrl = urlOf('http', app.server.address() as AddressInfo);
  logger.info({ listener: 'http', url: httpUrl, api: config.roles.has('api') }, 'listening');
  const urls: RunningHerald['urls'] = { http: httpUrl };

  // Custom tracking domains over HTTPS, with the certificates accounts uploaded (api role only).
  let trackingHttps: HttpsServer | undefined;
  if (config.roles.has('api') && config.tracking.httpsPort !== undefined) {
    const https = await listenTrackingHttps(core, config.tracking.httpsPort, config.http.host);
    trackingHttps = https.server;
    logger.info({ listener: 'tracking-https', url: https.url }, 'listening');
  }

  const smtpServers: SMTPServer[] = [];
  if (config.roles.has('smtp')) {
    const inbound = createInboundServer(core);
    for (const submission of submissionListeners(core)) {
      const url = urlOf('smtp', await listenSmtp(submission.server, submission.port, config.smtp.host));
      if (submission.name === 'smtp-submission') urls.smtpSubmission = url;
      logger.info({ listener: submission.name, url }, 'listening');
      smtpServers.push(submission.server);
    }
    urls.smtpInbound = urlOf('smtp', await listenSmtp(inbound, config.smtp.inboundPort, config.smtp.host));
    logger.info({ listener: 'smtp-inbound', url: urls.smtpInbound }, 'listening');
    smtpServers.push(inbound);
  }

  // The gateway for customers' systems: its listeners are on only when their ports are set.
  let gateway: RunningGateway | undefined;
  const { cmppPort, smppPort } = config.gateway;
  if (config.roles.has('gateway') && (cmppPort !== undefined || smppPort !== undefined)) {
    gateway = await startGateway(core, { host: config.gateway.host, cmppPort, smppPort });
    const host = config.gateway.host.includes(':') ? `[${config.gateway.host}]` : config.gateway.host;
    if (gateway.cmppPort !== undefined) {
      urls.cmpp = `cmpp://${host}:${gateway.cmppPort}`;
      logger.info({ listener: 'cmpp-gateway', url: urls.cmpp }, 'listening');
    }
    if (gateway.smppPort !== undefined) {
      urls.smpp = `smpp://${host}:${gateway.smppPort}`;
      logger.info({ listener: 'smpp-gateway', url: urls.smpp }, 'listening');
    }
  }

  let workers: Workers | undefined;
  if (config.roles.has('worker')) workers = await startWorkers(core);

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      logger.info('shutting down: no longer accepting work');
      await Promise.all([
        app.close(),
        gateway?.close(),
        ...smtpServers.map(closeSmtp),
        new Promise<void>((resolve) => {
          if (!trackingHttps) return resolve();
          trackingHttps.close(() => resolve());
          trackingHttps.closeIdleConnections();
        }),
      ]);
      await workers?.close(config.shutdownTimeoutMs);
      await core.nodes.deregister();
      await core.close();
      logger.info('stopped');
    })();
    return stopping;
  };
  return { core, urls, stop };
}

function urlOf(scheme: string, address: AddressInfo): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `${scheme}://${host}:${address.port}`;
}
