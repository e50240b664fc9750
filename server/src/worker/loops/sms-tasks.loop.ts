import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { LoopDefinition } from './loop.ts';

/** How often an idle runner looks for a due task: a scheduled task starts within this (spec: a minute). */
const POLL_MS = 2000;
const FAILURE_PAUSE_MS = 5000;

/**
 * Runs SMS tasks (core.smsTasks): claims a due task and writes its messages, at once again while
 * there are due tasks, every POLL_MS when idle, at once when a task is created in this process;
 * and marks written tasks finished once none of their messages is still with Herald. Several
 * workers may run it: each task is claimed under a lease by one of them.
 */
export const smsTasksLoop: LoopDefinition = {
  name: 'sms-tasks',
  start(core) {
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
    core.smsTasks.onStartable(() => wake?.());
    const run = (async () => {
      while (!stopped) {
        try {
          const worked = await core.smsTasks.runDue(owner, () => stopped);
          await core.smsTasks.finishSent();
          if (!worked) await pause(POLL_MS);
        } catch (err) {
          core.logger.error({ err }, 'SMS task runner failed');
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
