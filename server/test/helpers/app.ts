import type { FastifyInstance } from 'fastify';
import { type Core, createCore } from '../../src/compose.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { buildHttpApp, type HttpAppOptions } from '../../src/http/app.ts';
import type { RouteEntry } from '../../src/http/plugins/access.ts';
import { createLogger } from '../../src/logger.ts';
import { createTestDatabase, secretKeyEnv, tempDir } from './database.ts';

export interface TestApp {
  app: FastifyInstance;
  core: Core;
  routes: RouteEntry[];
  close(): Promise<void>;
}

/** Test configuration: a temporary data dir and database, the test Redis when one is given. */
export async function testConfig(
  env: Record<string, string> = {},
): Promise<{ config: Config; drop(): Promise<void> }> {
  const db = await createTestDatabase();
  const config = loadConfig(
    {
      HERALD_DATA_DIR: tempDir(),
      DATABASE_URL: db.url,
      HERALD_LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      ...(process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL } : {}),
      HERALD_QUEUE_PREFIX: `herald-test-${process.pid}-${Date.now()}`,
      // The test client on loopback plays the proxy: tests name their client addresses with
      // X-Forwarded-For (trusted-proxies.test.ts checks what happens without this).
      HERALD_TRUSTED_PROXIES: '127.0.0.1,::1',
      // CI serves a copy of the console build while `npm test` rebuilds console/dist beside it.
      ...(process.env.HERALD_CONSOLE_DIR ? { HERALD_CONSOLE_DIR: process.env.HERALD_CONSOLE_DIR } : {}),
      ...secretKeyEnv(),
      ...env,
    },
    [],
  );
  return { config, drop: db.drop };
}

/**
 * The real HTTP app on a real database, called through app.inject(). `prepare` may add routes
 * before the app is sealed (tests of the error mapper use it).
 */
export async function buildTestApp(
  options: Partial<HttpAppOptions> & {
    prepare?: (app: FastifyInstance) => void;
    env?: Record<string, string>;
    /** Capture the log lines here (at HERALD_LOG_LEVEL, which env may set). */
    logDestination?: { write(line: string): void };
  } = {},
): Promise<TestApp> {
  const { config, drop } = await testConfig(options.env);
  const core = await createCore(
    config,
    createLogger({ level: config.logLevel, roles: config.roles, destination: options.logDestination }),
  );
  let http: Awaited<ReturnType<typeof buildHttpApp>>;
  try {
    http = await buildHttpApp(core, {
      api: options.api ?? true,
      authenticate: options.authenticate,
      apiv2Areas: options.apiv2Areas,
    });
    options.prepare?.(http.app);
    await http.app.ready();
  } catch (error) {
    await core.close();
    await drop();
    throw error;
  }
  const { app, routes } = http;
  return {
    app,
    core,
    routes,
    async close() {
      await app.close();
      await core.close();
      await drop();
    },
  };
}
