import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { httpEffects } from '../../infra/http/http-effects.ts';
import { SUCCESS_TOAST_SECONDS } from '../../infra/http/http-exceptions.ts';
import { TimedTaskForm } from './timed-tasks/TimedTaskForm.tsx';
import { timedTaskDetailPath } from './timed-tasks/timed-task-paths.ts';

/** A new timed task (console-spec §2 /sendRelative/timedTask/add); saved, it opens the task's page. */
export default function TimedTaskAddPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <TimedTaskForm
      onSaved={(task) => {
        httpEffects().toast('success', t('timedTasks.created'), SUCCESS_TOAST_SECONDS);
        navigate(timedTaskDetailPath(task.id));
      }}
    />
  );
}
