import { useQuery } from '@tanstack/react-query';
import { Button, Card, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { fetchTimedTask } from '../../api/timed-tasks.api.ts';
import { httpEffects } from '../../infra/http/http-effects.ts';
import { HttpError } from '../../infra/http/http-errors.ts';
import { SUCCESS_TOAST_SECONDS } from '../../infra/http/http-exceptions.ts';
import { TimedTaskForm } from './timed-tasks/TimedTaskForm.tsx';
import { TIMED_TASKS_PATH, timedTaskDetailPath } from './timed-tasks/timed-task-paths.ts';

/**
 * A timed task changed before it starts (console-spec §2 /sendRelative/timedTask/edit?id=); one
 * that has started says so and leads to its page.
 */
export default function TimedTaskEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const task = useQuery({
    queryKey: ['timedTasks', 'one', id],
    queryFn: () => fetchTimedTask(id),
    enabled: Number.isInteger(id) && id > 0,
  });
  if (!Number.isInteger(id) || id <= 0 || (task.error instanceof HttpError && task.error.status === 404)) {
    return (
      <Result
        status="404"
        title={t('timedTasks.notFound')}
        extra={<Link to={TIMED_TASKS_PATH}>{t('timedTasks.back')}</Link>}
      />
    );
  }
  if (task.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  if (!task.data) return <Card loading />;
  if (!task.data.changeable) {
    return (
      <Result
        status="info"
        title={t('timedTasks.notChangeable')}
        className="timed-task-not-changeable"
        extra={
          <Link to={timedTaskDetailPath(id)}>
            <Button type="primary">{t('timedTasks.detail')}</Button>
          </Link>
        }
      />
    );
  }
  return (
    <TimedTaskForm
      task={task.data}
      onSaved={(saved) => {
        httpEffects().toast('success', t('timedTasks.saved'), SUCCESS_TOAST_SECONDS);
        navigate(timedTaskDetailPath(saved.id));
      }}
    />
  );
}
