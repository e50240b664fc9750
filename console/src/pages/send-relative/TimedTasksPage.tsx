import { PERMISSIONS } from '@herald/shared/permissions';
import { TIMED_TASK_STATUSES, type TimedTaskStatus } from '@herald/shared/schemas/timed-task.schema';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Empty,
  Flex,
  Input,
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
  fetchTaskPrivate,
  fetchTimedTasks,
  timedTaskFollowing as following,
  type TimedTaskView,
  timedTaskProgress,
} from '../../api/timed-tasks.api.ts';
import { Can } from '../../components/Can.tsx';
import { TimedTaskActions } from './timed-tasks/TimedTaskActions.tsx';
import { TimedTaskStatusTag } from './timed-tasks/TimedTaskStatusTag.tsx';
import { TIMED_TASK_ADD_PATH, timedTaskDetailPath } from './timed-tasks/timed-task-paths.ts';

const PAGE_SIZE = 20;
/** While a task waits for its time or its mail is being sent, the list follows it this often. */
const FOLLOW_MS = 3000;

/**
 * Timed tasks (console-spec §2 /sendRelative/timedTask): the account's tasks, newest first, found
 * by name and status, each with its lists, its time and zone, its status (not requested, request
 * succeeded, request failed, cancelled), the progress of its mail and its delivered and failed
 * counts, followed every few seconds while one waits or sends. Before a task starts it can be
 * edited or cancelled (after a confirmation). A free account is told where to upgrade; with no
 * task yet the empty state leads to creating one.
 */
export default function TimedTasksPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [status, setStatus] = useState<TimedTaskStatus | undefined>();
  const [pageNum, setPageNum] = useState(1);
  const query = { name: name || undefined, status, pageNum, pageSize: PAGE_SIZE };
  const tasks = useQuery({
    queryKey: ['timedTasks', query],
    queryFn: () => fetchTimedTasks(query),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.list.some(following) ? FOLLOW_MS : false),
  });
  const own = useQuery({ queryKey: ['timedTasks', 'private'], queryFn: fetchTaskPrivate });
  const open = (task: TimedTaskView) => navigate(timedTaskDetailPath(task.id));

  if (tasks.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const paid = tasks.data?.paid !== false;
  const add = paid && (
    <Can code={PERMISSIONS.EMAIL_SEND} level="full">
      <Button type="primary" className="timed-task-add" onClick={() => navigate(TIMED_TASK_ADD_PATH)}>
        {t('timedTasks.add')}
      </Button>
    </Can>
  );
  const empty =
    name || status ? (
      <Empty description={t('timedTasks.emptyFiltered')} />
    ) : (
      <Empty
        description={
          <Space direction="vertical" size={0}>
            <span>{t('timedTasks.empty')}</span>
            {paid && <Typography.Text type="secondary">{t('timedTasks.emptyHint')}</Typography.Text>}
          </Space>
        }
        className="timed-tasks-empty"
      >
        {add}
      </Empty>
    );

  return (
    <Card className="timed-tasks-page">
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 16 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('timedTasks.title')}
        </Typography.Title>
        {add}
      </Flex>
      <Typography.Paragraph type="secondary">{t('timedTasks.intro')}</Typography.Paragraph>
      {own.data && (
        <Typography.Paragraph type="secondary" className="timed-tasks-private">
          {t('timedTasks.privateHint')}
        </Typography.Paragraph>
      )}
      {!paid && (
        <Alert
          type="info"
          showIcon
          className="timed-tasks-paid-only"
          style={{ marginBottom: 16 }}
          title={t('timedTasks.paidOnly')}
          action={<Link to="/accountSetting/financialMangement/charge">{t('timedTasks.upgrade')}</Link>}
        />
      )}
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder={t('timedTasks.search')}
          className="timed-tasks-search"
          style={{ width: 260 }}
          onSearch={(value) => {
            setName(value.trim());
            setPageNum(1);
          }}
        />
        <Select<TimedTaskStatus | undefined>
          allowClear
          placeholder={t('timedTasks.allStatuses')}
          style={{ width: 180 }}
          value={status}
          onChange={(value) => {
            setStatus(value);
            setPageNum(1);
          }}
          options={TIMED_TASK_STATUSES.filter((s) => s !== 'sending').map((s) => ({
            value: s,
            label: t(`timedTasks.statuses.${s}`),
          }))}
        />
      </Space>
      <Table<TimedTaskView>
        rowKey="id"
        className="timed-tasks-table"
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
            title: t('timedTasks.name'),
            render: (_, row) => (
              <Typography.Link strong className="timed-task-open" onClick={() => open(row)}>
                {row.name}
              </Typography.Link>
            ),
          },
          { title: t('timedTasks.template'), render: (_, row) => row.templateName },
          {
            title: t('timedTasks.lists'),
            render: (_, row) => (
              <Space size={[0, 4]} wrap>
                {row.lists.map((list) => (
                  <Tag key={list.id}>{list.name}</Tag>
                ))}
              </Space>
            ),
          },
          {
            title: t('timedTasks.sendAt'),
            render: (_, row) => (
              <Space direction="vertical" size={0}>
                <span className="nowrap">{row.sendAt}</span>
                <Typography.Text type="secondary">{row.timeZone}</Typography.Text>
              </Space>
            ),
          },
          { title: t('timedTasks.status'), render: (_, row) => <TimedTaskStatusTag status={row.status} /> },
          {
            title: t('timedTasks.progress'),
            render: (_, row) => (
              <Progress
                className="timed-task-progress"
                percent={timedTaskProgress(row)}
                size="small"
                status={row.status === 'failed' ? 'exception' : following(row) ? 'active' : undefined}
                style={{ width: 140 }}
              />
            ),
          },
          {
            title: t('timedTasks.delivered'),
            render: (_, row) => (
              <span className="timed-task-delivered">{row.progress.delivered.toLocaleString()}</span>
            ),
          },
          {
            title: t('timedTasks.failed'),
            render: (_, row) => (
              <span className="timed-task-failed">{row.progress.failed.toLocaleString()}</span>
            ),
          },
          {
            title: t('timedTasks.actions'),
            render: (_, row) => (
              <Space size={0}>
                <Button type="link" className="timed-task-detail" onClick={() => open(row)}>
                  {t('timedTasks.detail')}
                </Button>
                <TimedTaskActions task={row} />
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}
