import { taskRunnerLoop } from './task-runner.ts';

/** Runs SMS tasks (core.smsTasks) with the shared task runner. */
export const smsTasksLoop = taskRunnerLoop('sms-tasks', (core) => core.smsTasks);
