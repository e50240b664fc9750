import type { Config } from '../config.ts';
import { type Database, openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import type { Logger } from '../logger.ts';
import { createMetrics, type Metrics } from '../metrics.ts';
import { createQueueBackend, describeQueue } from '../queue/create-queue.ts';
import { QUEUE_NAMES, QUEUES } from '../queue/names.ts';
import type { QueueBackend } from '../queue/queue.ts';
import { AccountTokensService } from './account-tokens/account-tokens.service.ts';
import { AccountsService } from './accounts/accounts.service.ts';
import { ensurePlatformOperator } from './accounts/platform-operator.ts';
import { AuthService } from './auth/auth.service.ts';
import { HumanCheck } from './auth/human-check.ts';
import { CaptchaService } from './captcha/captcha.service.ts';
import { SliderService } from './captcha/slider.service.ts';
import { NodesService } from './nodes/nodes.service.ts';
import { NotificationsService } from './notifications/notifications.service.ts';
import { RateLimiter } from './rate-limit/rate-limiter.ts';
import { RegistrationService } from './registration/registration.service.ts';
import { SessionsService } from './sessions/sessions.service.ts';
import { UsersService } from './users/users.service.ts';
import { VerificationCodesService } from './verification/verification-codes.service.ts';

/**
 * The composition root: the database, the queue and every service, built once per process and
 * handed to the protocol adapters (HTTP, SMTP, workers). Adapters never build their own.
 */
export interface Core {
  config: Config;
  logger: Logger;
  database: Database;
  queue: QueueBackend;
  metrics: Metrics;
  nodes: NodesService;
  accounts: AccountsService;
  users: UsersService;
  sessions: SessionsService;
  auth: AuthService;
  /** Herald's own email and SMS (activation, password reset, verification codes). */
  notifications: NotificationsService;
  captcha: CaptchaService;
  slider: SliderService;
  rateLimiter: RateLimiter;
  verificationCodes: VerificationCodesService;
  /** Sign-up, activation, forgotten and changed passwords. */
  registration: RegistrationService;
  /** Slider and image-code checks of public forms (login, sign-up, password). */
  humanCheck: HumanCheck;
  readiness(): Promise<Record<'database' | 'queue', string>>;
  close(): Promise<void>;
}

export async function createCore(config: Config, logger: Logger): Promise<Core> {
  const database = openDatabase(config.database);
  const applied = await migrateToLatest(database);
  logger.info({ database: database.describe, applied }, 'database ready');
  const queue = await createQueueBackend(config, database);
  logger.info({ queue: describeQueue(config) }, 'queue ready');
  const metrics = createMetrics(queue, QUEUE_NAMES);
  const nodes = new NodesService(database);
  const accounts = new AccountsService(database);
  const sessions = new SessionsService(database);
  const notifications = new NotificationsService({ database, queue, config, logger });
  const captcha = new CaptchaService(database);
  const slider = new SliderService(database);
  await ensurePlatformOperator(database, accounts, config.operator, logger);

  return {
    config,
    logger,
    database,
    queue,
    metrics,
    nodes,
    accounts,
    users: new UsersService(database),
    sessions,
    auth: new AuthService(database, sessions),
    notifications,
    captcha,
    slider,
    humanCheck: new HumanCheck(slider, captcha),
    rateLimiter: new RateLimiter(database),
    verificationCodes: new VerificationCodesService(database, notifications),
    registration: new RegistrationService({
      database,
      accounts,
      sessions,
      tokens: new AccountTokensService(database),
      mailer: notifications,
      publicUrl: config.publicUrl,
    }),
    async readiness() {
      const [db, q] = await Promise.allSettled([
        database.db
          .selectFrom('schema_version' as never)
          .select((eb) => eb.fn.countAll().as('n'))
          .execute(),
        queue.counts(QUEUES.system),
      ]);
      return {
        database: db.status === 'fulfilled' ? 'ok' : String(db.reason),
        queue: q.status === 'fulfilled' ? 'ok' : String(q.reason),
      };
    },
    async close() {
      await queue.close({ timeoutMs: config.shutdownTimeoutMs });
      await notifications.close();
      await database.close();
    },
  };
}
