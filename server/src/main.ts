import { ConfigError, loadConfig } from './config.ts';
import { startHerald } from './herald.ts';
import { createLogger } from './logger.ts';

/** Entry point of every Herald process: `node server/src/main.ts [--role=api,worker,smtp]`. */
let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`herald: ${error.message}\n`);
  process.exit(2);
}

const logger = createLogger({ level: config.logLevel, roles: config.roles });
logger.info({ node: process.version }, 'starting');

try {
  const herald = await startHerald(config, logger);
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    if (++signals > 1) {
      logger.warn({ signal }, 'second signal: exiting at once');
      process.exit(1);
    }
    logger.info({ signal }, 'signal received');
    herald.stop().then(
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
  process.exit(1);
}
