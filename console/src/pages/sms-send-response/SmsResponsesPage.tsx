import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, Empty, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { fetchSmsReplies, type SmsReplyView } from '../../api/sms-replies.api.ts';
import { when } from '../send-response/email-status/email-status-time.ts';
import { ResponseTable } from '../send-response/search/ResponseSearch.tsx';
import { PhonePeriodForm, usePhonePeriodSearch } from './SmsPhonePeriodSearch.tsx';

/**
 * Uplink replies (console-spec §2 /s_sendResponse/smsResponse): what handsets answered to the
 * account's SMS in a period of at most a month, with the SMS each answers and whether it was an
 * opt-out (the number is then on the unsubscribe list).
 */
export default function SmsResponsesPage() {
  const { t } = useTranslation();
  const { search, query } = usePhonePeriodSearch();
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
      <PhonePeriodForm search={search} className="sms-replies-filters" />
      <ResponseTable<SmsReplyView>
        rows={rows}
        page={search.page}
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
