import { ConfigError, loadConfig } from './config.ts';
import { startHerald } from './herald.ts';
import { keepDataPrivate } from './lib/private-files.ts';
import { createLogger } from './logger.ts';
import {
  exitWithParent,
  startWorkerProcess,
  type WorkerProcess,
  wantsWorkerProcess,
} from './worker-process.ts';

/**
 * Entry point of every Herald process: `node server/src/main.ts [--role=api,worker,smtp]
 * [--worker-process=auto|on|off]` (worker-process.ts).
 */
let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`herald: ${error.message}\n`);
  process.exit(2);
}

const logger = createLogger({ level: config.logLevel, roles: config.roles });
keepDataPrivate(config.dataDir);
logger.info({ node: process.version }, 'starting');

exitWithParent(logger);
const separateWorker = wantsWorkerProcess(config);
if (separateWorker) config.roles.delete('worker');
let workerProcess: WorkerProcess | undefined;

try {
  const herald = await startHerald(config, logger);
  // After this process has migrated the database, so the two never race to.
  if (separateWorker) workerProcess = startWorkerProcess(logger);
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    if (++signals > 1) {
      logger.warn({ signal }, 'second signal: exiting at once');
      process.exit(1);
    }
    logger.info({ signal }, 'signal received');
    Promise.all([herald.stop(), workerProcess?.stop()]).then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
} catch (error) {
  logger.fatal({ err: error }, 'failed to start');
  await workerProcess?.stop().catch(() => {});
  process.exit(1);
}
