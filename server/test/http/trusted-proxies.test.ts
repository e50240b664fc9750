import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { awayFromWindowEnd } from '../helpers/wait.ts';

/**
 * Who the client is: the socket's peer, unless that peer is a proxy named in
 * HERALD_TRUSTED_PROXIES; then X-Forwarded-For is read from the right, skipping trusted proxies,
 * and the first address that is not one is the client. Observed through the per-address allowance
 * of the public user-name check (60 a minute), over real HTTP on loopback.
 */
const LIMIT = 60;

describe('client addresses behind proxies', () => {
  const apps: TestApp[] = [];
  after(() => Promise.all(apps.map((t) => t.close())));

  async function serve(trustedProxies: string): Promise<(forwardedFor?: string) => Promise<number>> {
    const t = await buildTestApp({ env: { HERALD_TRUSTED_PROXIES: trustedProxies } });
    apps.push(t);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    return async (forwardedFor) => {
      const response = await fetch(
        `http://127.0.0.1:${port}/v3/access/register/checkUserName?userName=nobody_yet`,
        {
          headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
        },
      );
      await response.arrayBuffer();
      return response.status;
    };
  }

  it('trusts no forwarded header by default: a client cannot pick its address', async () => {
    const check = await serve('');
    await awayFromWindowEnd(60_000);
    for (let i = 0; i < LIMIT; i++) assert.equal(await check(`203.0.113.${i}`), 200);
    assert.equal(await check('198.51.100.1'), 429, 'a new X-Forwarded-For does not buy a new allowance');
    assert.equal(await check(), 429);
  });

  it('behind a trusted proxy, the right-most address that is not a trusted proxy is the client', async () => {
    const check = await serve('127.0.0.1, 192.0.2.0/24');
    await awayFromWindowEnd(60_000);
    for (let i = 0; i < LIMIT; i++) assert.equal(await check('203.0.113.5'), 200);
    assert.equal(await check('203.0.113.5'), 429);
    // What the client wrote itself (left of its own address) does not change who it is.
    assert.equal(await check('198.51.100.1, 203.0.113.5'), 429);
    // A second trusted proxy (192.0.2.9) is skipped: the client is the address it forwarded for.
    assert.equal(await check('198.51.100.1, 203.0.113.5, 192.0.2.9'), 429);
    assert.equal(await check('203.0.113.5, 198.51.100.2'), 200, 'another client behind the proxy');
  });

  it('refuses a list entry that is not an address or a range, naming the variable', () => {
    for (const bad of ['proxy.example.com', '10.0.0.0/33', '1.2.3', '::1/129']) {
      assert.throws(
        () => loadConfig({ HERALD_TRUSTED_PROXIES: `127.0.0.1,${bad}` }, []),
        (error: unknown) => error instanceof ConfigError && /HERALD_TRUSTED_PROXIES/.test(error.message),
        bad,
      );
    }
    const config = loadConfig({ HERALD_TRUSTED_PROXIES: ' 10.0.0.0/8 , ::1 ,fd00::/8' }, []);
    assert.deepEqual(config.http.trustedProxies, ['10.0.0.0/8', '::1', 'fd00::/8']);
  });
});
