import { PERMISSIONS } from '@herald/shared/permissions';
import { SMS_TASK_RESEND_DAYS } from '@herald/shared/schemas/sms-task.schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Col,
  Descriptions,
  Flex,
  List,
  Popconfirm,
  Progress,
  Result,
  Row,
  Space,
  Statistic,
  Tag,
  Typography,
} from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  cancelSmsTask,
  fetchSmsTask,
  resendSmsTask,
  type SmsTaskView,
  taskProgress,
} from '../../api/sms-tasks.api.ts';
import { Can } from '../../components/Can.tsx';
import { EChart } from '../../components/charts/EChart.tsx';
import { formatDateTime } from '../../components/format-time.ts';
import { HttpError } from '../../infra/http/http-errors.ts';
import { TASK_DETAIL_PATH, TaskStatusTag } from './SmsTasksPage.tsx';

const SEND = PERMISSIONS.SMS_SEND;
const FOLLOW_MS = 2000;

/**
 * One SMS task (console-spec §2 /s_sendRelative/task/taskPreivew?id=): what it sends and to
 * which lists, when, and where it stands: a progress bar while it writes and sends, its figures
 * (numbers, submitted, delivered, failed, awaiting receipt, not sent) and a chart of its
 * outcomes, why numbers were not sent, and its resend. Followed every two seconds until it ends.
 */
export default function SmsTaskPreviewPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const task = useQuery({
    queryKey: ['smsTasks', 'one', id],
    queryFn: () => fetchSmsTask(id),
    enabled: Number.isInteger(id) && id > 0,
    refetchInterval: (q) => {
      const data = q.state.data;
      if (!data) return false;
      const settling = data.status === 'finished' && data.requesting + data.waitingReceipt > 0;
      return data.status === 'waiting' || data.status === 'sending' || settling ? FOLLOW_MS : false;
    },
  });
  const refresh = () => queries.invalidateQueries({ queryKey: ['smsTasks'] });
  const cancel = useMutation({ mutationFn: cancelSmsTask, onSettled: refresh });
  const resend = useMutation({
    mutationFn: resendSmsTask,
    onSuccess: (created) => navigate(`${TASK_DETAIL_PATH}?id=${created.id}`),
    onSettled: refresh,
  });

  if (!(Number.isInteger(id) && id > 0) || (task.error instanceof HttpError && task.error.status === 404)) {
    return (
      <Result
        status="404"
        title={t('smsTasks.notFound')}
        extra={
          <Link to="/s_sendRelative/task">
            <Button>{t('smsTasks.back')}</Button>
          </Link>
        }
      />
    );
  }
  if (task.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const data = task.data;

  return (
    <Card className="sms-task-detail-page" loading={task.isPending}>
      {data && (
        <>
          <Flex justify="space-between" align="center" wrap gap={8}>
            <Space align="center">
              <Typography.Title level={4} style={{ margin: 0 }} className="sms-task-title">
                {data.name}
              </Typography.Title>
              <TaskStatusTag status={data.status} />
            </Space>
            <Space>
              <Can code={SEND} level="full">
                {data.status === 'waiting' && (
                  <Popconfirm
                    title={t('smsTasks.cancelConfirm', { name: data.name })}
                    okText={t('smsTasks.cancel')}
                    cancelText={t('smsTasks.keep')}
                    okButtonProps={{ danger: true, className: 'sms-task-cancel-ok' }}
                    onConfirm={() => cancel.mutateAsync(data.id)}
                  >
                    <Button danger className="sms-task-cancel">
                      {t('smsTasks.cancel')}
                    </Button>
                  </Popconfirm>
                )}
                {data.resendable && (
                  <Popconfirm
                    title={t('smsTasks.resendConfirm', { name: data.name, count: data.failed })}
                    okText={t('smsTasks.resend')}
                    cancelText={t('smsTasks.no')}
                    okButtonProps={{ className: 'sms-task-resend-ok' }}
                    onConfirm={() => resend.mutateAsync(data.id)}
                  >
                    <Button type="primary" className="sms-task-resend">
                      {t('smsTasks.resend')}
                    </Button>
                  </Popconfirm>
                )}
              </Can>
              <Link to="/s_sendRelative/task">
                <Button>{t('smsTasks.back')}</Button>
              </Link>
            </Space>
          </Flex>
          <Progress
            className="sms-task-progress"
            percent={taskProgress(data)}
            status={data.status === 'failed' ? 'exception' : data.status === 'sending' ? 'active' : undefined}
            style={{ margin: '16px 0' }}
          />
          {data.error && (
            <Alert
              type="error"
              showIcon
              className="sms-task-error"
              title={`${t('smsTasks.error')}：${data.error}`}
            />
          )}
          <TaskFigures task={data} />
          <Row gutter={24} style={{ marginTop: 16 }}>
            <Col xs={24} lg={12}>
              <TaskFacts task={data} />
            </Col>
            <Col xs={24} lg={12}>
              <OutcomeChart task={data} />
              {data.skipReasons.length > 0 && (
                <List
                  size="small"
                  className="sms-task-skip-reasons"
                  header={<Typography.Text strong>{t('smsTasks.skipReasons')}</Typography.Text>}
                  dataSource={data.skipReasons}
                  renderItem={(reason) => (
                    <List.Item data-code={reason.code}>
                      <span>{reason.message}</span>
                      <span>{reason.count.toLocaleString()}</span>
                    </List.Item>
                  )}
                />
              )}
            </Col>
          </Row>
        </>
      )}
    </Card>
  );
}

function TaskFigures({ task }: { task: SmsTaskView }) {
  const { t } = useTranslation();
  const figures: [string, string, number][] = [
    ['memberTotal', t('smsTasks.memberTotal'), task.memberTotal],
    ['queued', t('smsTasks.queued'), task.queued],
    ['delivered', t('smsTasks.delivered'), task.delivered],
    ['failed', t('smsTasks.failed'), task.failed],
    ['waitingReceipt', t('smsTasks.waitingReceipt'), task.waitingReceipt],
    ['skipped', t('smsTasks.skipped'), task.skipped],
  ];
  return (
    <Row gutter={[16, 16]} className="sms-task-figures">
      {figures.map(([key, title, value]) => (
        <Col key={key} xs={12} md={8} xl={4}>
          <Statistic title={title} value={value} className={`sms-task-figure-${key}`} />
        </Col>
      ))}
    </Row>
  );
}

function TaskFacts({ task }: { task: SmsTaskView }) {
  const { t } = useTranslation();
  return (
    <Descriptions column={1} size="small" bordered className="sms-task-facts">
      <Descriptions.Item label={t('smsTasks.template')}>{task.templateName}</Descriptions.Item>
      <Descriptions.Item label={t('smsTasks.signName')}>{task.signName}</Descriptions.Item>
      <Descriptions.Item label={t('smsTasks.lists')}>
        <Space size={[0, 4]} wrap>
          {task.contactLists.map((list) => (
            <Tag key={list.id}>{list.name}</Tag>
          ))}
        </Space>
      </Descriptions.Item>
      <Descriptions.Item label={t('smsTasks.sendAt')}>
        {task.scheduled
          ? t('smsTasks.scheduledAt', { time: formatDateTime(task.sendAt) })
          : t('smsTasks.now')}
      </Descriptions.Item>
      <Descriptions.Item label={t('smsTasks.createdAt')}>{formatDateTime(task.createdAt)}</Descriptions.Item>
      <Descriptions.Item label={t('smsTasks.startedAt')}>
        {task.startedAt ? formatDateTime(task.startedAt) : '—'}
      </Descriptions.Item>
      <Descriptions.Item label={t('smsTasks.endedAt')}>
        {task.endedAt ? formatDateTime(task.endedAt) : '—'}
      </Descriptions.Item>
      {task.resendOf !== null && (
        <Descriptions.Item label={t('smsTasks.resend')}>
          <Link to={`${TASK_DETAIL_PATH}?id=${task.resendOf}`}>
            {t('smsTasks.resendOf', { id: task.resendOf })}
          </Link>
        </Descriptions.Item>
      )}
      {task.resentBy !== null ? (
        <Descriptions.Item label={t('smsTasks.resend')}>
          <Link to={`${TASK_DETAIL_PATH}?id=${task.resentBy}`}>
            {t('smsTasks.resentBy', { id: task.resentBy })}
          </Link>
        </Descriptions.Item>
      ) : (
        task.failed > 0 && (
          <Descriptions.Item label={t('smsTasks.resend')}>
            {t('smsTasks.resendHint', { days: SMS_TASK_RESEND_DAYS })}
          </Descriptions.Item>
        )
      )}
    </Descriptions>
  );
}

/** Delivered, failed, awaiting receipt, processing and not sent, as a ring. */
function OutcomeChart({ task }: { task: SmsTaskView }) {
  const { t } = useTranslation();
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'item' },
      legend: { bottom: 0 },
      color: ['#52c41a', '#ff4d4f', '#1677ff', '#faad14', '#bfbfbf'],
      series: [
        {
          type: 'pie',
          radius: ['45%', '70%'],
          data: [
            { name: t('smsTasks.delivered'), value: task.delivered },
            { name: t('smsTasks.failed'), value: task.failed },
            { name: t('smsTasks.waitingReceipt'), value: task.waitingReceipt },
            { name: t('smsTasks.requesting'), value: task.requesting },
            { name: t('smsTasks.skipped'), value: task.skipped },
          ].filter((slice) => slice.value > 0),
        },
      ],
    }),
    [task, t],
  );
  if (task.queued + task.skipped === 0) return null;
  return <EChart option={option} height={260} ariaLabel={t('smsTasks.chart')} />;
}
