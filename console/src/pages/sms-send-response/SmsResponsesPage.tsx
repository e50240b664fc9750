import { checkSpan } from '@herald/shared/schemas/suppression.schema';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Flex, Form, Input, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchSmsReplies, type SmsReplyFilter, type SmsReplyView } from '../../api/sms-replies.api.ts';
import { dayRange, when } from '../send-response/email-status/email-status-time.ts';
import {
  type DayRangeFilter,
  PAGE_SIZE,
  ResponseTable,
  useResponseSearch,
} from '../send-response/search/ResponseSearch.tsx';

interface FilterForm extends DayRangeFilter {
  phone?: string;
}

function spanError(start: string, end: string): string | null {
  let message: string | null = null;
  checkSpan(dayRange(start, end), { addIssue: (issue) => (message = issue.message) });
  return message;
}

/**
 * Uplink replies (console-spec §2 /s_sendResponse/smsResponse): what handsets answered to the
 * account's SMS in a period of at most a month, with the SMS each answers and whether it was an
 * opt-out (the number is then on the unsubscribe list).
 */
export default function SmsResponsesPage() {
  const { t } = useTranslation();
  const search = useResponseSearch<FilterForm>(spanError);
  const { filter, page } = search;
  const query: SmsReplyFilter = useMemo(
    () => ({
      ...(filter.phone ? { phone: filter.phone.trim() } : {}),
      ...dayRange(filter.start, filter.end),
      page,
      pageSize: PAGE_SIZE,
    }),
    [filter, page],
  );
  const rows = useQuery({
    queryKey: ['smsReplies', query],
    queryFn: () => fetchSmsReplies(query),
    placeholderData: keepPreviousData,
  });

  return (
    <Card className="sms-replies-page">
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('smsReplies.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('smsReplies.intro')}</Typography.Paragraph>
      <Form
        form={search.form}
        layout="inline"
        initialValues={search.initial}
        onFinish={search.search}
        className="sms-replies-filters"
      >
        <Form.Item name="phone" label={t('smsReplies.phone')}>
          <Input allowClear name="phone" style={{ width: 160 }} />
        </Form.Item>
        <Form.Item label={t('smsReplies.period')} required>
          <Flex gap={4} align="center">
            <Form.Item name="start" noStyle rules={[{ required: true }]}>
              <Input type="date" name="start" max={search.today} style={{ width: 150 }} />
            </Form.Item>
            –
            <Form.Item name="end" noStyle rules={[{ required: true }]}>
              <Input type="date" name="end" max={search.today} style={{ width: 150 }} />
            </Form.Item>
          </Flex>
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" className="sms-replies-search">
            {t('smsReplies.search')}
          </Button>
        </Form.Item>
      </Form>
      {search.rangeError && (
        <Alert type="error" showIcon style={{ marginTop: 12 }} title={t('smsReplies.spanTooLong')} />
      )}
      <ResponseTable<SmsReplyView>
        rows={rows}
        page={page}
        onPage={search.setPage}
        className="sms-replies-table"
        scroll={{ x: 900 }}
        locale={{ emptyText: <Empty description={t('smsReplies.empty')} /> }}
        columns={[
          { title: t('smsReplies.phone'), dataIndex: 'phone', width: 150 },
          {
            title: t('smsReplies.content'),
            render: (_, r) => (
              <>
                {r.optOut && (
                  <Tag color="volcano" className="sms-reply-opt-out">
                    {t('smsReplies.optOut')}
                  </Tag>
                )}
                {r.content}
              </>
            ),
          },
          { title: t('smsReplies.smsId'), render: (_, r) => r.smsId ?? '—', width: 240 },
          { title: t('smsReplies.receivedAt'), render: (_, r) => when(r.receivedAt), width: 170 },
        ]}
      />
    </Card>
  );
}
