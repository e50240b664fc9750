import type { Core } from '../../compose.ts';
import type { LoopDefinition } from './loop.ts';

/**
 * A loop that applies batches of work at once while there is a backlog (`step` answered a full
 * batch) and every `idleMs` once caught up, pausing after a failure. Consumers of the event logs
 * (statistics, charging) run on it: their cursor rows serialise several workers running it.
 */
export function batchLoop(options: {
  name: string;
  batch: number;
  idleMs: number;
  failurePauseMs?: number;
  /** Applies up to `batch` items; answers how many it applied. */
  step(core: Core, batch: number): Promise<number>;
}): LoopDefinition {
  const failurePause = options.failurePauseMs ?? 5000;
  return {
    name: options.name,
    start(core) {
      let stopped = false;
      let wake: (() => void) | undefined;
      const pause = (ms: number) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, ms);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      const run = (async () => {
        while (!stopped) {
          try {
            const applied = await options.step(core, options.batch);
            if (applied < options.batch) await pause(options.idleMs);
          } catch (err) {
            core.logger.error({ err }, `${options.name} failed`);
            await pause(failurePause);
          }
        }
      })();
      return {
        async close(timeoutMs) {
          stopped = true;
          wake?.();
          await Promise.race([run, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
        },
      };
    },
  };
}
