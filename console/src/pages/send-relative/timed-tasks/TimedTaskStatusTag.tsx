import type { TimedTaskStatus } from '@herald/shared/schemas/timed-task.schema';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLORS: Record<TimedTaskStatus, string> = {
  waiting: 'default',
  sending: 'processing',
  requested: 'success',
  failed: 'error',
  cancelled: 'default',
};

/** A timed task's status as product-spec §4 names it (data-status for tests and styles). */
export function TimedTaskStatusTag({ status }: { status: TimedTaskStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLORS[status]} className="timed-task-status" data-status={status}>
      {t(`timedTasks.statuses.${status}`)}
    </Tag>
  );
}
