/** The timed-task screens (console-spec §2 /sendRelative/timedTask*). */
export const TIMED_TASKS_PATH = '/sendRelative/timedTask';
export const TIMED_TASK_ADD_PATH = `${TIMED_TASKS_PATH}/add`;
export const timedTaskEditPath = (id: number) => `${TIMED_TASKS_PATH}/edit?id=${id}`;
export const timedTaskDetailPath = (id: number) => `${TIMED_TASKS_PATH}/detail?id=${id}`;
