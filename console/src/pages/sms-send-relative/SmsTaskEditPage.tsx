import { type SmsTaskInput, smsTaskInputSchema } from '@herald/shared/schemas/sms-task.schema';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  Button,
  Card,
  Col,
  DatePicker,
  Empty,
  Form,
  Input,
  Radio,
  Result,
  Row,
  Select,
  Space,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { labelsApi } from '../../api/labels.api.ts';
import { fetchContactLists } from '../../api/sms-contacts.api.ts';
import { createSmsTask, fetchSmsTaskPreview } from '../../api/sms-tasks.api.ts';
import { fetchSmsTemplates } from '../../api/sms-templates.api.ts';
import { checkWithSchema, showFormError, zodRule } from '../../components/form-rules.ts';
import { SmsPhonePreview } from './SmsPhonePreview.tsx';
import { TASK_DETAIL_PATH } from './SmsTasksPage.tsx';

interface Values {
  name: string;
  templateId?: number;
  contactListIds: number[];
  labelId?: number;
  mode: 'now' | 'scheduled';
  sendAt?: Dayjs;
}

const shape = smsTaskInputSchema.shape;
const smsLabels = labelsApi('sms');

/**
 * A new SMS task (console-spec §2 /s_sendRelative/task/taskOpt): its name, a passed SMS template,
 * up to 5 contact lists, an optional label, and now or a time ahead; each field checked by the
 * shared schema the server runs. Beside the form, the handset shows what the first number of the
 * lists will read, with the number of numbers the lists hold. Without a passed template or a
 * contact list the page says what to make first. Created, it opens the task's own page.
 */
export default function SmsTaskEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const templates = useQuery({
    queryKey: ['smsTemplates', 'passed-sms'],
    queryFn: () => fetchSmsTemplates({ kind: 'sms', status: 'passed', pageNum: 1, pageSize: 100 }),
  });
  const lists = useQuery({
    queryKey: ['smsContactLists', 'all'],
    queryFn: () => fetchContactLists({ pageNum: 1, pageSize: 100 }),
  });
  const labels = useQuery({ queryKey: [smsLabels.key, 'options'], queryFn: () => smsLabels.options() });
  const templateId = Form.useWatch('templateId', form);
  const listIds = Form.useWatch('contactListIds', form) ?? [];
  const mode = Form.useWatch('mode', form);
  const preview = useQuery({
    queryKey: ['smsTaskPreview', templateId, listIds],
    queryFn: () => fetchSmsTaskPreview(templateId as number, listIds),
    enabled: templateId !== undefined && listIds.length > 0 && listIds.length <= 5,
  });

  const create = useMutation({
    mutationFn: (input: SmsTaskInput) => createSmsTask(input),
    onSuccess: (task) => navigate(`${TASK_DETAIL_PATH}?id=${task.id}`),
    onError: (error) => showFormError(form, error),
  });

  if (templates.isError || lists.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const loading = templates.isPending || lists.isPending;
  const noTemplate = templates.data?.list.length === 0;
  const noList = lists.data?.list.length === 0;

  const submit = (values: Values) => {
    const input: SmsTaskInput = {
      name: values.name,
      templateId: values.templateId as number,
      contactListIds: values.contactListIds,
      labelId: values.labelId,
      scheduled: values.mode === 'scheduled',
      sendAt: values.mode === 'scheduled' ? values.sendAt?.valueOf() : undefined,
    };
    if (checkWithSchema(form, smsTaskInputSchema, input)) create.mutate(input);
  };

  return (
    <Card className="sms-task-edit-page" loading={loading}>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('smsTasks.editTitle')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('smsTasks.editIntro')}</Typography.Paragraph>
      {noTemplate ? (
        <Empty description={t('smsTasks.noTemplate')} className="sms-task-no-template">
          <Link to="/s_sendRelative/template">
            <Button type="primary">{t('smsTasks.createTemplate')}</Button>
          </Link>
        </Empty>
      ) : noList ? (
        <Empty description={t('smsTasks.noList')} className="sms-task-no-list">
          <Link to="/s_sendRelative/contact">
            <Button type="primary">{t('smsTasks.createList')}</Button>
          </Link>
        </Empty>
      ) : (
        <Row gutter={32}>
          <Col xs={24} lg={14}>
            <Form<Values>
              form={form}
              layout="vertical"
              initialValues={{ name: '', contactListIds: [], mode: 'now' }}
              onFinish={submit}
            >
              <Form.Item name="name" label={t('smsTasks.name')} rules={[zodRule(shape.name)]}>
                <Input name="name" maxLength={64} className="sms-task-name" />
              </Form.Item>
              <Form.Item name="templateId" label={t('smsTasks.template')} rules={[zodRule(shape.templateId)]}>
                <Select
                  className="sms-task-template"
                  showSearch
                  optionFilterProp="label"
                  options={(templates.data?.list ?? []).map((tpl) => ({ value: tpl.id, label: tpl.name }))}
                />
              </Form.Item>
              <Form.Item
                name="contactListIds"
                label={t('smsTasks.lists')}
                rules={[zodRule(shape.contactListIds)]}
              >
                <Select
                  mode="multiple"
                  className="sms-task-lists"
                  optionFilterProp="label"
                  maxCount={5}
                  options={(lists.data?.list ?? []).map((list) => ({
                    value: list.id,
                    label: `${list.name}（${t('smsTasks.members', { count: list.memberCount })}）`,
                    disabled: list.importing,
                  }))}
                />
              </Form.Item>
              <Form.Item name="labelId" label={t('smsTasks.label')}>
                <Select
                  allowClear
                  className="sms-task-label"
                  placeholder={t('smsTasks.labelPlaceholder')}
                  options={labels.data ?? []}
                />
              </Form.Item>
              <Form.Item name="mode" label={t('smsTasks.mode')}>
                <Radio.Group className="sms-task-mode">
                  <Radio value="now">{t('smsTasks.modeNow')}</Radio>
                  <Radio value="scheduled">{t('smsTasks.modeScheduled')}</Radio>
                </Radio.Group>
              </Form.Item>
              {mode === 'scheduled' && (
                <Form.Item name="sendAt" label={t('smsTasks.time')}>
                  <DatePicker
                    showTime
                    className="sms-task-time"
                    format="YYYY-MM-DD HH:mm"
                    disabledDate={(day) => day.isBefore(dayjs().startOf('day'))}
                  />
                </Form.Item>
              )}
              <Space>
                <Button
                  type="primary"
                  htmlType="submit"
                  className="sms-task-submit"
                  loading={create.isPending}
                >
                  {t('smsTasks.submit')}
                </Button>
                <Link to="/s_sendRelative/task">
                  <Button>{t('smsTasks.back')}</Button>
                </Link>
              </Space>
            </Form>
          </Col>
          <Col xs={24} lg={10}>
            <Typography.Title level={5}>{t('smsTasks.previewTitle')}</Typography.Title>
            {!preview.data ? (
              <Typography.Text type="secondary">{t('smsTasks.previewEmpty')}</Typography.Text>
            ) : preview.data.samples.length === 0 ? (
              <Typography.Text type="secondary">{t('smsTasks.previewNoMembers')}</Typography.Text>
            ) : (
              <Space direction="vertical">
                <Typography.Text className="sms-task-preview-total">
                  {t('smsTasks.previewTotal', { count: preview.data.memberTotal })}
                </Typography.Text>
                <Typography.Text type="secondary">{preview.data.samples[0]?.phone}</Typography.Text>
                <SmsPhonePreview text={preview.data.samples[0]?.text ?? ''} />
              </Space>
            )}
          </Col>
        </Row>
      )}
    </Card>
  );
}
