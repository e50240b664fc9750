import { PERMISSIONS } from '@herald/shared/permissions';
import { smsKeywordSchema } from '@herald/shared/schemas/sms-interception.schema';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, Form, Input, Popconfirm, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { addSmsKeyword, fetchSmsKeywords, removeSmsKeyword } from '../../api/sms-interception.api.ts';
import { Can } from '../../components/Can.tsx';
import { showFormError, zodRule } from '../../components/form-rules.ts';
import { SmsBlockList } from './SmsBlockList.tsx';
import { SmsListFileActions } from './SmsListFileActions.tsx';

/**
 * SMS interception (console-spec §2 /s_sendResponse/interceptor): the account's blocked numbers
 * (420) and its keyword filter (440).
 */
export default function SmsInterceptorPage() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [form] = Form.useForm<{ keyword: string }>();
  const keywords = useQuery({ queryKey: ['smsKeywords'], queryFn: fetchSmsKeywords });
  const add = useMutation({
    mutationFn: (values: { keyword: string }) => addSmsKeyword(values.keyword),
    onSuccess: (list) => {
      form.resetFields();
      queries.setQueryData(['smsKeywords'], list);
    },
    onError: (error) => showFormError(form, error),
  });
  const remove = useMutation({
    mutationFn: removeSmsKeyword,
    onSuccess: () => queries.invalidateQueries({ queryKey: ['smsKeywords'] }),
  });

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} className="sms-interceptor-page">
      <SmsBlockList kind="block" />
      <Card className="sms-keywords">
        <Space style={{ width: '100%', justifyContent: 'space-between' }}>
          <Typography.Title level={5} style={{ marginTop: 0 }}>
            {t('smsSend.keywordsTitle')}
          </Typography.Title>
          <SmsListFileActions
            kind="keyword"
            onImported={() => queries.invalidateQueries({ queryKey: ['smsKeywords'] })}
          />
        </Space>
        <Typography.Paragraph type="secondary">{t('smsSend.keywordsIntro')}</Typography.Paragraph>
        <Can code={PERMISSIONS.SMS_RESPONSE} level="full">
          <Form form={form} layout="inline" onFinish={(values) => add.mutate(values)}>
            <Form.Item name="keyword" rules={[zodRule(smsKeywordSchema.shape.keyword)]}>
              <Input placeholder={t('smsSend.keyword')} maxLength={30} className="sms-keyword-input" />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={add.isPending} className="sms-keyword-add">
              {t('smsSend.keywordAdd')}
            </Button>
          </Form>
        </Can>
        <div style={{ marginTop: 16 }}>
          {(keywords.data ?? []).length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('smsSend.keywordEmpty')} />
          ) : (
            (keywords.data ?? []).map((k) => (
              <Popconfirm
                key={k.id}
                title={t('smsSend.blockDeleteConfirm')}
                onConfirm={() => remove.mutate(k.id)}
              >
                <Tag closable={false} style={{ cursor: 'pointer' }} className="sms-keyword">
                  {k.keyword} ×
                </Tag>
              </Popconfirm>
            ))
          )}
        </div>
      </Card>
    </Space>
  );
}
