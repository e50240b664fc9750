import { PERMISSIONS } from '@herald/shared/permissions';
import { validationMessage } from '@herald/shared/validation';
import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Flex,
  Form,
  type FormInstance,
  Input,
  Result,
  Select,
  Table,
  type TableProps,
} from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchApiUsers } from '../../../api/api-users.api.ts';
import { fetchLabelOptions } from '../../../api/labels.api.ts';
import { Can } from '../../../components/Can.tsx';
import { useSessionStore } from '../../../stores/session.store.ts';
import { dayString } from '../email-status/email-status-time.ts';

/**
 * What the per-recipient response screens (email status, opens and clicks) share: a filter form
 * by address, API_USER, label and a day range (the last seven days at first) with search, reset
 * and export, the range's error, and a paged table of the server's rows. Each screen adds its
 * own fields, range rule, query and columns.
 */
export const PAGE_SIZE = 20;

const DAY_MS = 86_400_000;

/** The fields every response filter has; the date inputs' `yyyy-MM-dd` days. */
export interface DayRangeFilter {
  email?: string;
  apiUserId?: number;
  labelId?: number;
  start: string;
  end: string;
}

export interface ResponseSearch<F extends DayRangeFilter> {
  form: FormInstance<F>;
  /** The latest day the date inputs offer. */
  today: string;
  initial: F;
  /** The filter last searched for (the initial one until then). */
  filter: F;
  page: number;
  setPage: (page: number) => void;
  /** The range rule's message key when the last search broke it. */
  rangeError: string | null;
  search: (values: F) => void;
  reset: () => void;
}

/** The filter state of a response screen; `rangeRule` answers a message key for a range it refuses. */
export function useResponseSearch<F extends DayRangeFilter>(
  rangeRule: (start: string, end: string) => string | null,
): ResponseSearch<F> {
  const [form] = Form.useForm<F>();
  const today = dayString(Date.now());
  const initial = { start: dayString(Date.now() - 6 * DAY_MS), end: today } as F;
  const [filter, setFilter] = useState<F>(initial);
  const [page, setPage] = useState(1);
  const [rangeError, setRangeError] = useState<string | null>(null);
  const search = (values: F) => {
    const error = rangeRule(values.start, values.end);
    setRangeError(error);
    if (error) return;
    setPage(1);
    setFilter(values);
  };
  const reset = () => {
    form.resetFields();
    setRangeError(null);
    search(initial);
  };
  return { form, today, initial, filter, page, setPage, rangeError, search, reset };
}

interface FiltersProps<F extends DayRangeFilter> {
  search: ResponseSearch<F>;
  /** The locale area of the screen's labels. */
  area: 'emailStatus' | 'tracking';
  /** The class prefix of the screen's elements (`<prefix>-filters`, `-search`, `-export`, …). */
  prefix: string;
  /** The screen's own fields, after the address and after the label. */
  afterEmail?: ReactNode;
  afterLabel?: ReactNode;
  exportLabel: string;
  /** The export of the filtered result; the client has shown the server's message when it fails. */
  onExport: () => Promise<void>;
}

export function ResponseFilters<F extends DayRangeFilter>({
  search,
  area,
  prefix,
  afterEmail,
  afterLabel,
  exportLabel,
  onExport,
}: FiltersProps<F>) {
  const { t, i18n } = useTranslation();
  const hideExport = useSessionStore((state) => state.hideExport);
  const [exporting, setExporting] = useState(false);
  const apiUsers = useQuery({ queryKey: ['apiUsers', 'list'], queryFn: fetchApiUsers });
  const labels = useQuery({ queryKey: ['labels', 'options'], queryFn: fetchLabelOptions });

  const runExport = async () => {
    setExporting(true);
    try {
      await onExport();
    } catch {
      // The client has shown the server's message.
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <Form
        form={search.form}
        layout="inline"
        initialValues={search.initial}
        onFinish={search.search}
        className={`${prefix}-filters`}
      >
        <Form.Item name="email" label={t(`${area}.email`)}>
          <Input allowClear name="email" style={{ width: 200 }} />
        </Form.Item>
        {afterEmail}
        <Form.Item name="apiUserId" label="API_USER">
          <Select
            allowClear
            style={{ width: 160 }}
            placeholder={t(`${area}.all`)}
            options={(apiUsers.data ?? []).map((u) => ({ value: u.id, label: u.name }))}
          />
        </Form.Item>
        <Form.Item name="labelId" label={t(`${area}.label`)}>
          <Select
            allowClear
            style={{ width: 140 }}
            placeholder={t(`${area}.all`)}
            options={labels.data ?? []}
          />
        </Form.Item>
        {afterLabel}
        <Form.Item label={t(`${area}.time`)} required>
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
          <Flex gap="small">
            <Button type="primary" htmlType="submit" className={`${prefix}-search`}>
              {t(`${area}.search`)}
            </Button>
            <Button onClick={search.reset}>{t(`${area}.reset`)}</Button>
            {!hideExport && (
              <Can code={PERMISSIONS.EMAIL_RESPONSE} level="full">
                <Button className={`${prefix}-export`} loading={exporting} onClick={runExport}>
                  {exportLabel}
                </Button>
              </Can>
            )}
          </Flex>
        </Form.Item>
      </Form>
      {search.rangeError && (
        <Alert
          type="error"
          showIcon
          className={`${prefix}-range-error`}
          style={{ marginTop: 12 }}
          title={validationMessage(search.rangeError, i18n.language === 'en' ? 'en' : 'zh-cn')}
        />
      )}
    </>
  );
}

interface TableOfRowsProps<Row> extends Omit<TableProps<Row>, 'dataSource' | 'loading' | 'pagination'> {
  rows: UseQueryResult<{ data: Row[]; total: number }>;
  page: number;
  onPage: (page: number) => void;
}

/** One page of the server's rows (PAGE_SIZE a page), or a warning when they could not be loaded. */
export function ResponseTable<Row extends object>({ rows, page, onPage, ...table }: TableOfRowsProps<Row>) {
  const { t } = useTranslation();
  if (rows.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  return (
    <Table<Row>
      rowKey="id"
      style={{ marginTop: 16 }}
      loading={rows.isFetching}
      dataSource={rows.data?.data ?? []}
      pagination={{
        current: page,
        pageSize: PAGE_SIZE,
        total: rows.data?.total ?? 0,
        showSizeChanger: false,
        hideOnSinglePage: true,
        onChange: onPage,
      }}
      {...table}
    />
  );
}
