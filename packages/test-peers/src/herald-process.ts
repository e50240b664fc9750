import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/**
 * Runs the real server as a child process, the way an operator would, against a fresh data
 * directory with every port chosen by the OS. The server reports each listener as a pino JSON
 * line `{"msg":"listening","listener":"http","url":...}`; that line is the only readiness
 * signal, so the harness never guesses ports or polls.
 */
export interface HeraldOptions {
  /** Extra or overriding environment variables for the server process. */
  env?: Record<string, string>;
  /** How long to wait for the HTTP listener; default 60 s. */
  startTimeoutMs?: number;
  /** Command-line arguments, e.g. `['--role=worker']`. */
  args?: string[];
}

export interface LogLine {
  raw: string;
  json: Record<string, unknown> | undefined;
}

export interface Herald {
  /** Base URL of the HTTP listener, without a trailing slash. */
  url: string;
  /** Every listener reported so far, by name (`http`, `smtp-submission`, `smtp-inbound`). */
  listeners: Record<string, string>;
  dataDir: string;
  /** The server process's id (what it names itself by, e.g. in its delivery leases). */
  pid: number;
  /** Raw stdout and stderr lines, in arrival order. */
  logs: string[];
  /** Resolves with the first log line (past or future) the predicate accepts. */
  waitForLog(predicate: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** SIGTERM, then waits for exit and removes the data directory; throws on an unclean exit. */
  stop(): Promise<void>;
  /** SIGKILL: the process dies with no chance to clean up. */
  kill(): Promise<void>;
}

const REPO_ROOT = join(import.meta.dirname, '..', '..', '..');
const NODE_BIN = join(REPO_ROOT, 'node_modules', '.bin', 'node');
const STOP_TIMEOUT_MS = 15_000;
const LOG_TAIL = 60;

function parseLine(raw: string): LogLine {
  try {
    const json: unknown = JSON.parse(raw);
    return {
      raw,
      json: typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : undefined,
    };
  } catch {
    return { raw, json: undefined };
  }
}

function hermeticEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('HERALD_')) env[key] = value;
  }
  return { ...env, ...extra };
}

function describeLogs(logs: string[]): string {
  const tail = logs.slice(-LOG_TAIL);
  return tail.length ? `last ${tail.length} log lines:\n${tail.join('\n')}` : 'no log output';
}

export async function startHerald(options: HeraldOptions = {}): Promise<Herald> {
  const dataDir = await mkdtemp(join(tmpdir(), 'herald-e2e-'));
  const logs: string[] = [];
  const lines: LogLine[] = [];
  const listeners: Record<string, string> = {};
  const waiters = new Set<(line: LogLine) => void>();

  const child: ChildProcess = spawn(NODE_BIN, ['server/src/main.ts', ...(options.args ?? [])], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: hermeticEnv({
      HERALD_DATA_DIR: dataDir,
      HERALD_HTTP_HOST: '127.0.0.1',
      HERALD_HTTP_PORT: '0',
      HERALD_SMTP_PORT: '0',
      HERALD_INBOUND_SMTP_PORT: '0',
      HERALD_LOG_LEVEL: 'info',
      ...options.env,
    }),
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    // 'close', not 'exit': it fires once stdout and stderr are drained, so no last line is lost.
    child.once('close', (code, signal) => {
      process.off('exit', killOnExit);
      resolve({ code, signal });
    });
  });

  const accept = (raw: string) => {
    logs.push(raw);
    const line = parseLine(raw);
    lines.push(line);
    if (line.json?.msg === 'listening' && typeof line.json.listener === 'string') {
      listeners[line.json.listener] = String(line.json.url);
    }
    for (const waiter of waiters) waiter(line);
  };
  createInterface({ input: child.stdout! }).on('line', accept);
  createInterface({ input: child.stderr! }).on('line', accept);

  const waitForLog = (predicate: (line: LogLine) => boolean, timeoutMs = 30_000): Promise<LogLine> => {
    const seen = lines.find(predicate);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const check = (line: LogLine) => {
        if (predicate(line)) finish(undefined, line);
      };
      const finish = (error: Error | undefined, line?: LogLine) => {
        clearTimeout(timer);
        waiters.delete(check);
        if (error) reject(error);
        else resolve(line!);
      };
      const timer = setTimeout(
        () => finish(new Error(`no matching log line within ${timeoutMs} ms; ${describeLogs(logs)}`)),
        timeoutMs,
      );
      waiters.add(check);
      void exited.then(({ code, signal }) => {
        if (waiters.has(check)) {
          finish(new Error(`the server exited (code ${code}, signal ${signal}); ${describeLogs(logs)}`));
        }
      });
    });
  };

  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      try {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
        const { code, signal } = await exited;
        clearTimeout(timer);
        if (code !== 0) {
          throw new Error(
            `Herald did not exit cleanly (code ${code}, signal ${signal}); ${describeLogs(logs)}`,
          );
        }
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    })();
    return stopped;
  };

  try {
    const ready = await waitForLog(
      (line) => line.json?.msg === 'listening' && line.json.listener === 'http',
      options.startTimeoutMs ?? 60_000,
    );
    const url = String(ready.json?.url).replace(/\/$/, '');
    const kill = async () => {
      child.kill('SIGKILL');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    };
    return { url, listeners, dataDir, pid: child.pid as number, logs, waitForLog, stop, kill };
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    await rm(dataDir, { recursive: true, force: true });
    throw new Error(`Herald did not start: ${(error as Error).message}`, { cause: error });
  }
}
