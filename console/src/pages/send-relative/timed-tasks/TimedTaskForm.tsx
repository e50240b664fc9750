import {
  TIMED_TASK_DEFAULT_TIME_ZONE,
  TIMED_TASK_MAX_LISTS,
  TIMED_TASK_TIME_ZONES,
  type TimedTaskInput,
  type TimedTaskTimeZone,
  timedTaskInputSchema,
  timeZoneOffset,
} from '@herald/shared/schemas/timed-task.schema';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, DatePicker, Empty, Form, Input, Result, Select, Space, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  createTimedTask,
  fetchTimedTaskOptions,
  type TimedTaskView,
  updateTimedTask,
} from '../../../api/timed-tasks.api.ts';
import { checkWithSchema, showFormError, zodRule } from '../../../components/form-rules.ts';
import { useFormSave } from '../../../components/use-form-save.ts';
import { TimedTaskFilesField } from './TimedTaskFilesField.tsx';
import { TIMED_TASKS_PATH } from './timed-task-paths.ts';

interface Values {
  name: string;
  fromName: string;
  fromLocal: string;
  fromDomain?: string;
  replyTo?: string;
  templateId?: number;
  listIds: number[];
  labelId?: number;
  tag?: string;
  apiUserId?: number;
  sendAt?: Dayjs;
  timeZone: TimedTaskTimeZone;
  attachmentIds: number[];
}

const shape = timedTaskInputSchema.shape;
const TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** "(GMT+08:00) Asia/Shanghai", the offset of today. */
function zoneLabel(zone: string): string {
  const minutes = Math.round(timeZoneOffset(Date.now(), zone) / 60_000);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `(GMT${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}) ${zone}`;
}

/** The browser's zone when the form offers it, Beijing time otherwise. */
function browserZone(): TimedTaskTimeZone {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (TIMED_TASK_TIME_ZONES as readonly string[]).includes(zone)
    ? (zone as TimedTaskTimeZone)
    : TIMED_TASK_DEFAULT_TIME_ZONE;
}

/**
 * The timed-task form of timedTask/add and timedTask/edit (product-spec §3's fields): name, the
 * sender's name and address on one of the account's verified domains, reply-to, a passed
 * template, up to 5 address lists, label, tag, the batch API_USER, the execution time in a chosen
 * time zone and the attachments; every field checked by the shared schema the server runs (the
 * time against now in the zone chosen). Without a template, a list, an API_USER or a domain the
 * form says what to make first.
 */
export function TimedTaskForm({
  task,
  onSaved,
}: {
  task?: TimedTaskView;
  onSaved: (task: TimedTaskView) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const options = useQuery({ queryKey: ['timedTasks', 'options'], queryFn: fetchTimedTaskOptions });
  const save = useFormSave(
    (input: TimedTaskInput) =>
      (task ? updateTimedTask(task.id, input) : createTimedTask(input)).then(onSaved),
    (error) => showFormError(form, error),
  );

  if (options.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const data = options.data;
  const missing = !data
    ? null
    : data.templates.length === 0
      ? { text: 'noTemplate', link: '/sendRelative/template', action: 'createTemplate' }
      : data.lists.length === 0
        ? { text: 'noList', link: '/sendRelative/address', action: 'createList' }
        : data.domains.length === 0
          ? { text: 'noDomain', link: '/sendSetting/domain', action: 'createDomain' }
          : data.apiUsers.length === 0
            ? { text: 'noApiUser', link: '/sendSetting/apiuser', action: 'createApiUser' }
            : null;

  const [fromLocal = '', fromDomain] = task ? task.from.split('@') : [];
  const initial: Values = task
    ? {
        name: task.name,
        fromName: task.fromName,
        fromLocal,
        fromDomain,
        replyTo: task.replyTo ?? undefined,
        templateId: task.templateId,
        listIds: task.lists.map((l) => l.id),
        labelId: task.labelId ?? undefined,
        tag: task.tag ?? undefined,
        apiUserId: task.apiUserId,
        sendAt: dayjs(task.sendAt),
        timeZone: task.timeZone,
        attachmentIds: task.attachments.map((f) => f.id),
      }
    : {
        name: '',
        fromName: '',
        fromLocal: '',
        fromDomain: data?.domains[0],
        listIds: [],
        apiUserId: data?.apiUsers[0]?.id,
        timeZone: browserZone(),
        attachmentIds: [],
      };

  const submit = (values: Values) => {
    const input: TimedTaskInput = {
      name: values.name,
      fromName: values.fromName,
      from: `${values.fromLocal.trim()}@${values.fromDomain ?? ''}`,
      replyTo: values.replyTo || undefined,
      templateId: values.templateId as number,
      listIds: values.listIds,
      labelId: values.labelId,
      tag: values.tag || undefined,
      apiUserId: values.apiUserId as number,
      sendAt: values.sendAt ? values.sendAt.format(TIME_FORMAT) : '',
      timeZone: values.timeZone,
      attachmentIds: values.attachmentIds,
    };
    // The address is checked on its first half (the rule above); the rest by the shared schema.
    if (checkWithSchema(form, timedTaskInputSchema, input)) save.submit(input);
  };

  return (
    <Card className="timed-task-form-page" loading={options.isPending}>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t(task ? 'timedTasks.editTitle' : 'timedTasks.addTitle')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('timedTasks.formIntro')}</Typography.Paragraph>
      {missing ? (
        <Empty
          description={t(`timedTasks.${missing.text}` as 'timedTasks.noList')}
          className="timed-task-missing"
        >
          <Link to={missing.link}>
            <Button type="primary">{t(`timedTasks.${missing.action}` as 'timedTasks.createList')}</Button>
          </Link>
        </Empty>
      ) : (
        data && (
          <Form<Values>
            form={form}
            layout="vertical"
            style={{ maxWidth: 640 }}
            initialValues={initial}
            onFinish={submit}
            className="timed-task-form"
          >
            <Form.Item name="name" label={t('timedTasks.name')} rules={[zodRule(shape.name)]}>
              <Input name="name" maxLength={64} className="timed-task-name" />
            </Form.Item>
            <Form.Item name="fromName" label={t('timedTasks.fromName')} rules={[zodRule(shape.fromName)]}>
              <Input name="fromName" maxLength={64} className="timed-task-from-name" />
            </Form.Item>
            <Form.Item label={t('timedTasks.from')} required>
              <Space.Compact style={{ width: '100%' }}>
                <Form.Item
                  name="fromLocal"
                  noStyle
                  rules={[
                    {
                      validator: (_rule, local: string | undefined) =>
                        (
                          zodRule(shape.from) as { validator: (r: unknown, v: string) => Promise<void> }
                        ).validator(
                          _rule,
                          `${(local ?? '').trim()}@${form.getFieldValue('fromDomain') ?? ''}`,
                        ),
                    },
                  ]}
                >
                  <Input
                    name="fromLocal"
                    className="timed-task-from-local"
                    placeholder={t('timedTasks.fromLocal')}
                  />
                </Form.Item>
                <Form.Item name="fromDomain" noStyle>
                  <Select
                    className="timed-task-from-domain"
                    style={{ minWidth: 220 }}
                    options={data.domains.map((d) => ({ value: d, label: `@${d}` }))}
                  />
                </Form.Item>
              </Space.Compact>
            </Form.Item>
            <Form.Item name="replyTo" label={t('timedTasks.replyTo')} rules={[zodRule(shape.replyTo)]}>
              <Input name="replyTo" className="timed-task-reply-to" placeholder={t('timedTasks.optional')} />
            </Form.Item>
            <Form.Item name="templateId" label={t('timedTasks.template')} rules={[zodRule(shape.templateId)]}>
              <Select
                className="timed-task-template"
                showSearch
                optionFilterProp="label"
                options={data.templates.map((tpl) => ({ value: tpl.id, label: tpl.name }))}
              />
            </Form.Item>
            <Form.Item name="listIds" label={t('timedTasks.lists')} rules={[zodRule(shape.listIds)]}>
              <Select
                mode="multiple"
                className="timed-task-lists"
                optionFilterProp="label"
                maxCount={TIMED_TASK_MAX_LISTS}
                options={data.lists.map((list) => ({
                  value: list.id,
                  label: `${list.name}（${t('timedTasks.listMembers', { count: list.memberCount })}）`,
                }))}
              />
            </Form.Item>
            <Form.Item name="apiUserId" label={t('timedTasks.apiUser')} rules={[zodRule(shape.apiUserId)]}>
              <Select
                className="timed-task-api-user"
                options={data.apiUsers.map((u) => ({ value: u.id, label: u.name }))}
              />
            </Form.Item>
            <Form.Item name="labelId" label={t('timedTasks.label')}>
              <Select
                allowClear
                className="timed-task-label"
                placeholder={t('timedTasks.optional')}
                options={data.labels.map((l) => ({ value: l.id, label: l.name }))}
              />
            </Form.Item>
            <Form.Item name="tag" label={t('timedTasks.tag')} rules={[zodRule(shape.tag)]}>
              <Input
                name="tag"
                maxLength={64}
                className="timed-task-tag"
                placeholder={t('timedTasks.optional')}
              />
            </Form.Item>
            <Space wrap align="start">
              <Form.Item name="timeZone" label={t('timedTasks.timeZone')} rules={[zodRule(shape.timeZone)]}>
                <Select
                  className="timed-task-time-zone"
                  style={{ minWidth: 260 }}
                  showSearch
                  optionFilterProp="label"
                  options={TIMED_TASK_TIME_ZONES.map((zone) => ({ value: zone, label: zoneLabel(zone) }))}
                />
              </Form.Item>
              <Form.Item name="sendAt" label={t('timedTasks.sendAt')} required>
                <DatePicker
                  showTime
                  className="timed-task-send-at"
                  format={TIME_FORMAT}
                  disabledDate={(day) => day.isBefore(dayjs().subtract(1, 'day').startOf('day'))}
                />
              </Form.Item>
            </Space>
            <Form.Item name="attachmentIds" label={t('timedTasks.attachments')}>
              <TimedTaskFilesField known={task?.attachments} />
            </Form.Item>
            <Space>
              <Button type="primary" htmlType="submit" className="timed-task-submit" loading={save.saving}>
                {t(task ? 'timedTasks.submitSave' : 'timedTasks.submitCreate')}
              </Button>
              <Link to={TIMED_TASKS_PATH}>
                <Button>{t('timedTasks.back')}</Button>
              </Link>
            </Space>
          </Form>
        )
      )}
    </Card>
  );
}
