import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Flex,
  Progress,
  Result,
  Space,
  Statistic,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  fetchTimedTask,
  type TimedTaskView,
  timedTaskFollowing,
  timedTaskProgress,
} from '../../api/timed-tasks.api.ts';
import { formatDateTime } from '../../components/format-time.ts';
import { HttpError } from '../../infra/http/http-errors.ts';
import { TimedTaskActions } from './timed-tasks/TimedTaskActions.tsx';
import { TimedTaskStatusTag } from './timed-tasks/TimedTaskStatusTag.tsx';
import { TIMED_TASKS_PATH } from './timed-tasks/timed-task-paths.ts';

const FOLLOW_MS = 2000;

/**
 * One timed task (console-spec §2 /sendRelative/timedTask/detail?id=): what it sends, from whom,
 * to which lists, when and in which zone, with which attachments; its status and, once its request
 * is made, the progress of each list send (members, written, delivered, with Herald, failed).
 * Followed every two seconds while it waits or its mail is being sent.
 */
export default function TimedTaskDetailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const task = useQuery({
    queryKey: ['timedTasks', 'one', id],
    queryFn: () => fetchTimedTask(id),
    enabled: Number.isInteger(id) && id > 0,
    refetchInterval: (q) => (q.state.data && timedTaskFollowing(q.state.data) ? FOLLOW_MS : false),
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
  const data = task.data;
  if (!data) return <Card loading />;
  const none = <Typography.Text type="secondary">{t('timedTasks.none')}</Typography.Text>;

  return (
    <Card className="timed-task-detail-page">
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Space>
          <Typography.Title level={4} style={{ margin: 0 }} className="timed-task-title">
            {data.name}
          </Typography.Title>
          <TimedTaskStatusTag status={data.status} />
        </Space>
        <Space>
          <TimedTaskActions task={data} onDeleted={() => navigate(TIMED_TASKS_PATH)} />
          <Link to={TIMED_TASKS_PATH}>
            <Button>{t('timedTasks.back')}</Button>
          </Link>
        </Space>
      </Flex>
      {data.message && (
        <Alert
          type="error"
          showIcon
          className="timed-task-message"
          style={{ marginTop: 16 }}
          title={t('timedTasks.message')}
          description={data.message}
        />
      )}
      <Descriptions column={{ xs: 1, md: 2 }} style={{ marginTop: 16 }} className="timed-task-fields">
        <Descriptions.Item label={t('timedTasks.sendAt')}>
          <span className="timed-task-send-at-text">{`${data.sendAt} (${data.timeZone})`}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('timedTasks.template')}>{data.templateName}</Descriptions.Item>
        <Descriptions.Item label={t('timedTasks.fromName')}>{data.fromName}</Descriptions.Item>
        <Descriptions.Item label={t('timedTasks.from')}>{data.from}</Descriptions.Item>
        <Descriptions.Item label={t('timedTasks.replyTo')}>{data.replyTo ?? none}</Descriptions.Item>
        <Descriptions.Item label={t('timedTasks.apiUser')}>{data.apiUserName}</Descriptions.Item>
        <Descriptions.Item label={t('timedTasks.lists')}>
          <Space size={[0, 4]} wrap>
            {data.lists.map((list) => (
              <Tag key={list.id} title={list.address}>
                {list.name}
              </Tag>
            ))}
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label={t('timedTasks.label')}>{data.labelName ?? none}</Descriptions.Item>
        <Descriptions.Item label={t('timedTasks.tag')}>{data.tag ?? none}</Descriptions.Item>
        <Descriptions.Item label={t('timedTasks.attachments')}>
          {data.attachments.length === 0 ? none : data.attachments.map((f) => f.name).join(', ')}
        </Descriptions.Item>
        <Descriptions.Item label={t('timedTasks.createdAt')}>
          {formatDateTime(data.createdAt)}
        </Descriptions.Item>
        <Descriptions.Item label={t('timedTasks.startedAt')}>
          {data.startedAt ? formatDateTime(data.startedAt) : none}
        </Descriptions.Item>
      </Descriptions>
      <Typography.Title level={5}>{t('timedTasks.progress')}</Typography.Title>
      <Progress
        className="timed-task-progress"
        percent={timedTaskProgress(data)}
        status={data.status === 'failed' ? 'exception' : timedTaskFollowing(data) ? 'active' : undefined}
      />
      <Flex gap={48} wrap style={{ margin: '16px 0' }}>
        <Statistic title={t('timedTasks.members')} value={data.progress.memberTotal} />
        <Statistic title={t('timedTasks.queued')} value={data.progress.queued} />
        <Statistic
          title={t('timedTasks.delivered')}
          value={data.progress.delivered}
          className="timed-task-delivered"
        />
        <Statistic title={t('timedTasks.waiting')} value={data.progress.waiting} />
        <Statistic title={t('timedTasks.failed')} value={data.progress.failed} />
      </Flex>
      <Typography.Title level={5}>{t('timedTasks.sends')}</Typography.Title>
      <SendsTable task={data} />
    </Card>
  );
}

function SendsTable({ task }: { task: TimedTaskView }) {
  const { t } = useTranslation();
  if (task.sends.length === 0) {
    return <Typography.Paragraph type="secondary">{t('timedTasks.noSends')}</Typography.Paragraph>;
  }
  return (
    <Table
      rowKey="listId"
      size="small"
      className="timed-task-sends"
      pagination={false}
      dataSource={task.sends}
      columns={[
        { title: t('timedTasks.lists'), render: (_, s) => s.listName || s.listAddress },
        {
          title: t('timedTasks.status'),
          render: (_, s) => <Tag data-status={s.status}>{t(`timedTasks.sendStatuses.${s.status}`)}</Tag>,
        },
        { title: t('timedTasks.members'), dataIndex: 'memberTotal' },
        { title: t('timedTasks.queued'), dataIndex: 'queued' },
        { title: t('timedTasks.delivered'), dataIndex: 'delivered' },
        { title: t('timedTasks.waiting'), dataIndex: 'waiting' },
        { title: t('timedTasks.failed'), render: (_, s) => s.invalid + s.softBounce },
        { title: t('timedTasks.message'), render: (_, s) => s.error ?? '' },
      ]}
    />
  );
}
