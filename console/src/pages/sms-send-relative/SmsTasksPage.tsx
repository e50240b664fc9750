import { PERMISSIONS } from '@herald/shared/permissions';
import { SMS_TASK_STATUSES, type SmsTaskStatus } from '@herald/shared/schemas/sms-task.schema';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Empty,
  Flex,
  Input,
  Popconfirm,
  Progress,
  Result,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import {
  cancelSmsTask,
  fetchSmsTasks,
  resendSmsTask,
  type SmsTaskView,
  taskProgress,
} from '../../api/sms-tasks.api.ts';
import { Can } from '../../components/Can.tsx';
import { formatDateTime } from '../../components/format-time.ts';
import { httpEffects } from '../../infra/http/http-effects.ts';
import { SUCCESS_TOAST_SECONDS } from '../../infra/http/http-exceptions.ts';

export const TASK_EDIT_PATH = '/s_sendRelative/task/taskOpt';
export const TASK_DETAIL_PATH = '/s_sendRelative/task/taskPreivew';
const SEND = PERMISSIONS.SMS_SEND;
const PAGE_SIZE = 20;
/** While a task waits or sends, the list follows it this often. */
const FOLLOW_MS = 3000;

const STATUS_COLORS: Record<SmsTaskStatus, string> = {
  waiting: 'default',
  sending: 'processing',
  finished: 'success',
  failed: 'error',
  cancelled: 'default',
};

/** The task's status as a tag (data-status for tests and styles). */
export function TaskStatusTag({ status }: { status: SmsTaskStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATUS_COLORS[status]} className="sms-task-status" data-status={status}>
      {t(`smsTasks.statuses.${status}`)}
    </Tag>
  );
}

/**
 * SMS tasks (console-spec §2 /s_sendRelative/task): the account's tasks, newest first, found by
 * name and status, each with its lists, its time, its progress bar and its delivered and failed
 * counts, followed every few seconds while one waits or sends. A waiting task can be cancelled and
 * a finished one's failed SMS resent, each after a confirmation. Tasks are a paid account's
 * function: a free account is told where to upgrade; with no task yet the empty state leads to
 * creating one.
 */
export default function SmsTasksPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [name, setName] = useState('');
  const [status, setStatus] = useState<SmsTaskStatus | undefined>();
  const [pageNum, setPageNum] = useState(1);
  const query = { name: name || undefined, status, pageNum, pageSize: PAGE_SIZE };
  const tasks = useQuery({
    queryKey: ['smsTasks', query],
    queryFn: () => fetchSmsTasks(query),
    placeholderData: keepPreviousData,
    refetchInterval: (q) =>
      q.state.data?.list.some((task) => task.status === 'waiting' || task.status === 'sending')
        ? FOLLOW_MS
        : false,
  });
  const refresh = () => queries.invalidateQueries({ queryKey: ['smsTasks'] });
  const cancel = useMutation({
    mutationFn: cancelSmsTask,
    onSuccess: () => httpEffects().toast('success', t('smsTasks.cancelled'), SUCCESS_TOAST_SECONDS),
    onSettled: refresh,
  });
  const resend = useMutation({ mutationFn: resendSmsTask, onSettled: refresh });
  const open = (task: SmsTaskView) => navigate(`${TASK_DETAIL_PATH}?id=${task.id}`);

  if (tasks.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const paid = tasks.data?.paid !== false;
  const add = paid && (
    <Can code={SEND} level="full">
      <Button type="primary" className="sms-task-add" onClick={() => navigate(TASK_EDIT_PATH)}>
        {t('smsTasks.add')}
      </Button>
    </Can>
  );
  const filtered = Boolean(name || status);
  const empty = filtered ? (
    <Empty description={t('smsTasks.emptyFiltered')} />
  ) : (
    <Empty description={t('smsTasks.empty')} className="sms-tasks-empty">
      {add}
    </Empty>
  );

  return (
    <Card className="sms-tasks-page">
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 16 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('smsTasks.title')}
        </Typography.Title>
        {add}
      </Flex>
      <Typography.Paragraph type="secondary">{t('smsTasks.intro')}</Typography.Paragraph>
      {!paid && (
        <Alert
          type="info"
          showIcon
          className="sms-tasks-paid-only"
          style={{ marginBottom: 16 }}
          title={t('smsTasks.paidOnly')}
          action={<Link to="/accountSetting/financialMangement/charge">{t('smsTasks.upgrade')}</Link>}
        />
      )}
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder={t('smsTasks.search')}
          className="sms-tasks-search"
          style={{ width: 260 }}
          onSearch={(value) => {
            setName(value.trim());
            setPageNum(1);
          }}
        />
        <Select<SmsTaskStatus | undefined>
          allowClear
          placeholder={t('smsTasks.allStatuses')}
          style={{ width: 160 }}
          value={status}
          onChange={(value) => {
            setStatus(value);
            setPageNum(1);
          }}
          options={SMS_TASK_STATUSES.map((s) => ({ value: s, label: t(`smsTasks.statuses.${s}`) }))}
        />
      </Space>
      <Table<SmsTaskView>
        rowKey="id"
        className="sms-tasks-table"
        loading={tasks.isPending}
        dataSource={tasks.data?.list ?? []}
        scroll={{ x: true }}
        onRow={(row) => ({ 'data-task-name': row.name }) as React.HTMLAttributes<HTMLElement>}
        pagination={{
          current: pageNum,
          pageSize: PAGE_SIZE,
          total: tasks.data?.total ?? 0,
          onChange: setPageNum,
          showSizeChanger: false,
          hideOnSinglePage: true,
        }}
        locale={{ emptyText: empty }}
        columns={[
          {
            title: t('smsTasks.name'),
            render: (_, row) => (
              <Typography.Link strong className="sms-task-open" onClick={() => open(row)}>
                {row.name}
              </Typography.Link>
            ),
          },
          { title: t('smsTasks.template'), render: (_, row) => row.templateName },
          {
            title: t('smsTasks.lists'),
            render: (_, row) => (
              <Space size={[0, 4]} wrap>
                {row.contactLists.map((list) => (
                  <Tag key={list.id}>{list.name}</Tag>
                ))}
              </Space>
            ),
          },
          {
            title: t('smsTasks.sendAt'),
            render: (_, row) => (
              <span className="nowrap">
                {row.scheduled
                  ? t('smsTasks.scheduledAt', { time: formatDateTime(row.sendAt) })
                  : formatDateTime(row.sendAt)}
              </span>
            ),
          },
          { title: t('smsTasks.status'), render: (_, row) => <TaskStatusTag status={row.status} /> },
          {
            title: t('smsTasks.progress'),
            render: (_, row) => (
              <Progress
                className="sms-task-progress"
                percent={taskProgress(row)}
                size="small"
                status={
                  row.status === 'failed' ? 'exception' : row.status === 'sending' ? 'active' : undefined
                }
                style={{ width: 140 }}
              />
            ),
          },
          {
            title: t('smsTasks.delivered'),
            render: (_, row) => <span className="sms-task-delivered">{row.delivered.toLocaleString()}</span>,
          },
          {
            title: t('smsTasks.failed'),
            render: (_, row) => <span className="sms-task-failed">{row.failed.toLocaleString()}</span>,
          },
          {
            title: t('smsTasks.actions'),
            render: (_, row) => (
              <Space size={0}>
                <Button type="link" className="sms-task-detail" onClick={() => open(row)}>
                  {t('smsTasks.detail')}
                </Button>
                <Can code={SEND} level="full">
                  {row.status === 'waiting' && (
                    <Popconfirm
                      title={t('smsTasks.cancelConfirm', { name: row.name })}
                      okText={t('smsTasks.cancel')}
                      cancelText={t('smsTasks.keep')}
                      okButtonProps={{ danger: true, className: 'sms-task-cancel-ok' }}
                      onConfirm={() => cancel.mutateAsync(row.id)}
                    >
                      <Button type="link" danger className="sms-task-cancel">
                        {t('smsTasks.cancel')}
                      </Button>
                    </Popconfirm>
                  )}
                  {row.resendable && (
                    <Popconfirm
                      title={t('smsTasks.resendConfirm', { name: row.name, count: row.failed })}
                      okText={t('smsTasks.resend')}
                      cancelText={t('smsTasks.no')}
                      okButtonProps={{ className: 'sms-task-resend-ok' }}
                      onConfirm={() => resend.mutateAsync(row.id)}
                    >
                      <Button type="link" className="sms-task-resend">
                        {t('smsTasks.resend')}
                      </Button>
                    </Popconfirm>
                  )}
                </Can>
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}
