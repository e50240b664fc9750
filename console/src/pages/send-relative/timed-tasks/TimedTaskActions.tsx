import { PERMISSIONS } from '@herald/shared/permissions';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Popconfirm, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { cancelTimedTask, deleteTimedTask, type TimedTaskView } from '../../../api/timed-tasks.api.ts';
import { Can } from '../../../components/Can.tsx';
import { httpEffects } from '../../../infra/http/http-effects.ts';
import { SUCCESS_TOAST_SECONDS } from '../../../infra/http/http-exceptions.ts';
import { timedTaskEditPath } from './timed-task-paths.ts';

/**
 * What may be done to a task, for those who may send: before it starts, edit and cancel (after a
 * confirmation); once it is cancelled, failed or its mail has gone, delete (after a confirmation).
 */
export function TimedTaskActions({ task, onDeleted }: { task: TimedTaskView; onDeleted?: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const refresh = () => queries.invalidateQueries({ queryKey: ['timedTasks'] });
  const toast = (key: 'timedTasks.cancelled' | 'timedTasks.deleted') =>
    httpEffects().toast('success', t(key), SUCCESS_TOAST_SECONDS);
  const cancel = useMutation({
    mutationFn: cancelTimedTask,
    onSuccess: () => toast('timedTasks.cancelled'),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: deleteTimedTask,
    onSuccess: () => {
      toast('timedTasks.deleted');
      onDeleted?.();
    },
    onSettled: refresh,
  });
  const sending = task.sends.some((s) => s.status === 'waiting' || s.status === 'sending');
  return (
    <Can code={PERMISSIONS.EMAIL_SEND} level="full">
      <Space size={0}>
        {task.changeable && (
          <>
            <Button
              type="link"
              className="timed-task-edit"
              onClick={() => navigate(timedTaskEditPath(task.id))}
            >
              {t('timedTasks.edit')}
            </Button>
            <Popconfirm
              title={t('timedTasks.cancelConfirm', { name: task.name })}
              okText={t('timedTasks.cancel')}
              cancelText={t('timedTasks.keep')}
              okButtonProps={{ danger: true, className: 'timed-task-cancel-ok' }}
              onConfirm={() => cancel.mutateAsync(task.id)}
            >
              <Button type="link" danger className="timed-task-cancel">
                {t('timedTasks.cancel')}
              </Button>
            </Popconfirm>
          </>
        )}
        {!task.changeable && task.status !== 'sending' && !sending && (
          <Popconfirm
            title={t('timedTasks.deleteConfirm', { name: task.name })}
            okText={t('timedTasks.delete')}
            cancelText={t('timedTasks.keep')}
            okButtonProps={{ danger: true, className: 'timed-task-delete-ok' }}
            onConfirm={() => remove.mutateAsync(task.id)}
          >
            <Button type="link" danger className="timed-task-delete">
              {t('timedTasks.delete')}
            </Button>
          </Popconfirm>
        )}
      </Space>
    </Can>
  );
}
