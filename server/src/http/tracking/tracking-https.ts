import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Core } from '../../compose.ts';
import { answerTracking } from './tracking-hit.ts';

/**
 * The tracking HTTPS listener (HERALD_TRACKING_HTTPS_PORT): custom tracking domains served with
 * the certificates their accounts uploaded, chosen per TLS handshake by SNI from
 * `core.sslCertificates` (cached per name, refreshed when a certificate changes). It answers
 * only the tracking paths; a name without a valid certificate fails the handshake.
 */
export async function listenTrackingHttps(
  core: Core,
  port: number,
  host: string,
): Promise<{ server: Server; url: string }> {
  const server = createServer(
    {
      SNICallback: (servername, done) => {
        core.sslCertificates.contextFor(servername).then(
          (context) => (context ? done(null, context) : done(new Error(`no certificate for ${servername}`))),
          (error: Error) => done(error),
        );
      },
    },
    (request, response) => {
      answerTracking(core, {
        method: request.method ?? 'GET',
        path: request.url ?? '/',
        ip: request.socket.remoteAddress ?? '',
        userAgent: request.headers['user-agent'] ?? '',
      }).then(
        (answer) => {
          response.writeHead(answer.status, answer.headers);
          response.end(request.method === 'HEAD' ? undefined : answer.body);
        },
        (error: unknown) => {
          core.logger.error({ err: error }, 'tracking request failed');
          response.writeHead(500).end();
        },
      );
    },
  );
  server.on('tlsClientError', () => {}); // handshakes for unknown names end here; not worth a log line
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { server, url: `https://${shown}:${address.port}` };
}
