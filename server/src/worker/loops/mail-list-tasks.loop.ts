import { taskRunnerLoop } from './task-runner.ts';

/** Runs list sends (core.mailListTasks) with the shared task runner. */
export const mailListTasksLoop = taskRunnerLoop('mail-list-tasks', (core) => core.mailListTasks);
