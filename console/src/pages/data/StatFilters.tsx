import {
  addMonths,
  presetRange,
  STAT_MAX_MONTHS,
  STAT_QUERY_PRESETS,
  type StatRangePreset,
  statDay,
  statQuerySchema,
} from '@herald/shared/schemas/statistics.schema';
import { validationMessage } from '@herald/shared/validation';
import { useQuery } from '@tanstack/react-query';
import { DatePicker, Flex, Input, Segmented, Select, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchApiUserOptions, fetchLabelOptions, type StatParams } from './statistics.api.ts';

const FORMAT = 'YYYY-MM-DD';

export interface StatFiltersProps {
  value: StatParams;
  onChange: (value: StatParams) => void;
  presets?: readonly StatRangePreset[];
  apiUser?: boolean;
  label?: boolean;
  domain?: boolean;
  groupBy?: boolean;
}

/**
 * The data centre's filter bar: a date-range preset or a custom range (Asia/Shanghai days, at
 * most 6 months back, checked by the same shared schema as the server), and where the screen
 * offers them an API_USER, a label, a receiving domain and day/hour grouping.
 */
export function StatFilters({ value, onChange, presets = STAT_QUERY_PRESETS, ...show }: StatFiltersProps) {
  const { t, i18n } = useTranslation();
  const [error, setError] = useState<string>();
  const today = statDay(Date.now());
  const apiUsers = useQuery({
    queryKey: ['stat', 'apiUsers'],
    queryFn: fetchApiUserOptions,
    enabled: !!show.apiUser,
  });
  const labels = useQuery({
    queryKey: ['stat', 'labels'],
    queryFn: fetchLabelOptions,
    enabled: !!show.label,
  });

  const apply = (next: StatParams) => {
    const result = statQuerySchema(today, presets).safeParse(next);
    if (!result.success) {
      setError(
        validationMessage(
          result.error.issues[0]?.message ?? 'invalid',
          i18n.language === 'en' ? 'en' : 'zh-cn',
        ),
      );
      return;
    }
    setError(undefined);
    onChange(next);
  };
  const shown = value.preset ? presetRange(value.preset as StatRangePreset, today) : value;
  const oldest = presets.includes('year') ? addMonths(today, -12) : addMonths(today, -STAT_MAX_MONTHS);

  return (
    <div className="stat-filters" style={{ marginBottom: 16 }}>
      <Flex gap="small" wrap align="center">
        <Select
          className="stat-preset"
          aria-label={t('statistics.filters.range')}
          style={{ width: 150 }}
          value={value.preset ?? 'custom'}
          options={[...presets, 'custom' as const].map((p) => ({
            value: p,
            label: t(`statistics.presets.${p}`),
          }))}
          onChange={(preset) =>
            preset === 'custom'
              ? apply({ ...value, preset: undefined, from: value.from ?? today, to: value.to ?? today })
              : apply({ ...value, preset, from: undefined, to: undefined })
          }
        />
        <DatePicker.RangePicker
          className="stat-range"
          allowClear={false}
          value={shown.from && shown.to ? [dayjs(shown.from), dayjs(shown.to)] : null}
          disabledDate={(d) => d.format(FORMAT) > today || d.format(FORMAT) < oldest}
          onChange={(range) => {
            if (range?.[0] && range[1]) {
              apply({
                ...value,
                preset: undefined,
                from: range[0].format(FORMAT),
                to: range[1].format(FORMAT),
              });
            }
          }}
        />
        {show.apiUser && (
          <Select
            allowClear
            aria-label={t('statistics.filters.apiUser')}
            placeholder={t('statistics.filters.allApiUsers')}
            style={{ width: 180 }}
            value={value.apiUserId}
            options={apiUsers.data ?? []}
            onChange={(apiUserId) => apply({ ...value, apiUserId })}
          />
        )}
        {show.label && (
          <Select
            allowClear
            aria-label={t('statistics.filters.label')}
            placeholder={t('statistics.filters.allLabels')}
            style={{ width: 160 }}
            value={value.labelId}
            options={labels.data ?? []}
            onChange={(labelId) => apply({ ...value, labelId })}
          />
        )}
        {show.domain && (
          <Input.Search
            allowClear
            aria-label={t('statistics.filters.domain')}
            placeholder={t('statistics.filters.domainPlaceholder')}
            style={{ width: 200 }}
            defaultValue={value.domain}
            onSearch={(domain) => apply({ ...value, domain: domain.trim() || undefined })}
          />
        )}
        {show.groupBy && (
          <Segmented
            value={value.groupBy ?? 'day'}
            options={[
              { value: 'day', label: t('statistics.filters.byDay') },
              { value: 'hour', label: t('statistics.filters.byHour') },
            ]}
            onChange={(groupBy) => apply({ ...value, groupBy: groupBy as 'day' | 'hour' })}
          />
        )}
      </Flex>
      {error ? (
        <Typography.Text type="danger" className="stat-filter-error">
          {error}
        </Typography.Text>
      ) : (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('statistics.filters.limitHint')}
        </Typography.Text>
      )}
    </div>
  );
}
