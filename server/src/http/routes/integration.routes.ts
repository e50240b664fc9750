import { type IntegrationView, PERMISSIONS, type SmtpSecurity } from '@herald/shared';
import type { FastifyInstance } from 'fastify';
import type { Core } from '../../compose.ts';

const SETTINGS = { access: PERMISSIONS.EMAIL_SETTINGS };

/**
 * The integration page's facts (`/sendSetting/integration`): where a developer's code sends, all
 * from the deployment's configuration. The API base is the public URL; the SMTP host is the
 * platform's name (HERALD_HOSTNAME, else the public URL's host); the ports are the submission
 * listeners this deployment opens (submission-server.ts), each with how it is secured.
 */
export function integrationRoutes(app: FastifyInstance, core: Core): void {
  app.get('/v3/api/mail/integration', { config: SETTINGS }, async () => ({ data: integrationView(core) }));
}

export function integrationView(core: Core): IntegrationView {
  const { publicUrl, hostname, smtp } = core.config;
  const ports: { port: number; security: SmtpSecurity }[] = [
    { port: smtp.submissionPort, security: smtp.tls ? 'starttls-optional' : 'none' },
  ];
  if (smtp.tls)
    ports.push({ port: smtp.starttlsPort, security: 'starttls' }, { port: smtp.tlsPort, security: 'tls' });
  return {
    apiBaseUrl: publicUrl,
    docsUrl: '/docs/api/',
    smtpHost: hostname ?? new URL(publicUrl).hostname,
    smtpPorts: ports,
  };
}
