import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Core } from '../../src/compose.ts';
import { buildHttpApp } from '../../src/http/app.ts';
import { createUser } from '../fixtures/factory.ts';
import type { TestApp } from '../helpers/app.ts';
import { bearer, type SignedIn } from '../helpers/members.ts';

/** Real browsers' and machines' user agents, as recipients' clients send them. */
export const UA = {
  chromeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.91 Safari/537.36',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  appleMail: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)',
  googleProxy: 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
};

/** A self-signed certificate and key for `domain`, valid for `days`, made by the openssl CLI. */
export function selfSigned(domain: string, days = 365): { cert: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), 'herald-ssl-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        String(days),
        '-subj',
        `/CN=${domain}`,
        '-addext',
        `subjectAltName=DNS:${domain}`,
      ],
      { stdio: 'ignore' },
    );
    return {
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A port free right now (for a listener whose port must be configured before it starts). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The console API and public endpoints of `core` on a real loopback port. */
export async function listenApi(core: Core): Promise<{ url: string; close(): Promise<void> }> {
  const { app } = await buildHttpApp(core, { api: true });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => app.close() };
}

/** A console owner (user + session) for an account made by the send fixtures. */
export async function ownerOf(t: TestApp, accountId: number, name: string): Promise<SignedIn> {
  const ctx = { accountId, userId: await createUser(t.core.database, accountId, { username: name }) };
  return { ctx, token: await t.core.sessions.create(ctx) };
}

export function consoleHeaders(who: SignedIn, lang = 'en'): Record<string, string> {
  return { ...bearer(who.token), lang, 'content-type': 'application/json' };
}
