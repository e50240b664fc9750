import { checkSpan } from '@herald/shared/schemas/suppression.schema';
import { Alert, Button, Flex, Form, Input } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { dayRange } from '../send-response/email-status/email-status-time.ts';
import {
  type DayRangeFilter,
  PAGE_SIZE,
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

/** What the SMS response lists filter by: a number, and a period of at most a month. */
export interface PhonePeriodQuery {
  phone?: string;
  startTime: number;
  endTime: number;
  page: number;
  pageSize: number;
}

/**
 * The search of the SMS response lists that look things up by number and period (uplink
 * replies, link clicks): the form, the query it makes, and the page.
 */
export function usePhonePeriodSearch() {
  const search = useResponseSearch<FilterForm>(spanError);
  const { filter, page } = search;
  const query: PhonePeriodQuery = useMemo(
    () => ({
      ...(filter.phone ? { phone: filter.phone.trim() } : {}),
      ...dayRange(filter.start, filter.end),
      page,
      pageSize: PAGE_SIZE,
    }),
    [filter, page],
  );
  return { search, query };
}

export function PhonePeriodForm({
  search,
  className,
}: {
  search: ReturnType<typeof usePhonePeriodSearch>['search'];
  className: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Form
        form={search.form}
        layout="inline"
        initialValues={search.initial}
        onFinish={search.search}
        className={className}
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
          <Button type="primary" htmlType="submit" className={`${className}-search`}>
            {t('smsReplies.search')}
          </Button>
        </Form.Item>
      </Form>
      {search.rangeError && (
        <Alert type="error" showIcon style={{ marginTop: 12 }} title={t('smsReplies.spanTooLong')} />
      )}
    </>
  );
}
