import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Core } from '../../compose.ts';
import type { TaskRunner } from '../../core/tasks/task-runner.ts';
import type { LoopDefinition } from './loop.ts';

/** How often an idle runner looks for a due task: a scheduled task starts within this (spec: a minute). */
const POLL_MS = 2000;
const FAILURE_PAUSE_MS = 5000;

/**
 * The loop that runs one kind of task: claims a due task and writes its messages, at once again
 * while there are due tasks, every POLL_MS when idle, at once when a task is made in this
 * process; and marks written tasks finished once none of their messages is still with Herald.
 * Several workers may run it: each task is claimed under a lease by one of them.
 */
export function taskRunnerLoop(name: string, runnerOf: (core: Core) => TaskRunner): LoopDefinition {
  return {
    name,
    start(core) {
      const runner = runnerOf(core);
      const owner = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
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
      runner.onStartable(() => wake?.());
      const run = (async () => {
        while (!stopped) {
          try {
            const worked = await runner.runDue(owner, () => stopped);
            await runner.finishSent();
            if (!worked) await pause(POLL_MS);
          } catch (err) {
            core.logger.error({ err, loop: name }, 'task runner failed');
            await pause(FAILURE_PAUSE_MS);
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
