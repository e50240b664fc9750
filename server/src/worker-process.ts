import { type ChildProcess, fork } from 'node:child_process';
import os from 'node:os';
import type { Config } from './config.ts';
import type { Logger } from './logger.ts';

/**
 * `--worker-process`: the delivery worker in a process of its own beside the one serving HTTP and
 * SMTP. Node runs JavaScript on one thread per process; with every role in one process, accepting
 * mail and delivering it take turns on that thread while the machine's other cores sit idle. The
 * README's `npm start` passes `--worker-process=auto`: a second process when the machine has at
 * least two cores and this process was to run every role. Both processes share the database (the
 * embedded SQLite file or PostgreSQL), exactly as separately started roles do.
 *
 * The child's HTTP listener (health and metrics) takes a free port. It stops when this process
 * stops, and exits by itself if this process dies (its IPC channel closes); if it dies, it is
 * started again after a second.
 */
export function wantsWorkerProcess(config: Config, argv: string[] = process.argv.slice(2)): boolean {
  const mode = argv.find((arg) => arg.startsWith('--worker-process='))?.slice('--worker-process='.length);
  if (mode === undefined || mode === 'off') return false;
  const everyRole = config.roles.has('worker') && config.roles.size > 1;
  if (mode === 'on') return everyRole;
  return everyRole && os.availableParallelism() >= 2;
}

export interface WorkerProcess {
  stop(): Promise<void>;
}

export function startWorkerProcess(logger: Logger): WorkerProcess {
  let child: ChildProcess | undefined;
  let stopping = false;
  const start = () => {
    const started = fork(process.argv[1] as string, ['--role=worker'], {
      env: { ...process.env, HERALD_ROLE: 'worker', HERALD_HTTP_PORT: '0' },
      execArgv: process.execArgv,
      stdio: 'inherit',
    });
    child = started;
    started.once('exit', (code, signal) => {
      if (child === started) child = undefined;
      if (stopping) return;
      logger.error({ code, signal }, 'worker process exited; starting it again');
      setTimeout(() => {
        if (!stopping) start();
      }, 1000).unref();
    });
  };
  start();
  logger.info('delivery worker started in its own process');
  return {
    async stop() {
      stopping = true;
      const running = child;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      await exited;
    },
  };
}

/** In the forked worker: leave when the parent is gone (its IPC channel closes), as a crash would. */
export function exitWithParent(logger: Logger): void {
  if (!process.connected) return;
  process.once('disconnect', () => {
    logger.warn('parent process gone: exiting');
    process.exit(1);
  });
}
