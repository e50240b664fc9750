import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, Empty, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { fetchSmsLinkClicks, type SmsLinkClickView } from '../../api/sms-links.api.ts';
import { when } from '../send-response/email-status/email-status-time.ts';
import { ResponseTable } from '../send-response/search/ResponseSearch.tsx';
import { PhonePeriodForm, usePhonePeriodSearch } from './SmsPhonePeriodSearch.tsx';

/**
 * Link clicks (console-spec §2 /s_sendResponse/linkClick): each click on an SMS short link in a
 * period of at most a month, with the number it names and the link; previews and scanners are
 * tagged as machines and never counted as people.
 */
export default function SmsLinkClickPage() {
  const { t } = useTranslation();
  const { search, query } = usePhonePeriodSearch();
  const rows = useQuery({
    queryKey: ['smsLinkClicks', query],
    queryFn: () => fetchSmsLinkClicks(query),
    placeholderData: keepPreviousData,
  });

  return (
    <Card className="sms-link-clicks-page">
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('smsLinks.clicksTitle')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('smsLinks.clicksIntro')}</Typography.Paragraph>
      <PhonePeriodForm search={search} className="sms-link-clicks-filters" />
      <ResponseTable<SmsLinkClickView>
        rows={rows}
        page={search.page}
        onPage={search.setPage}
        className="sms-link-clicks-table"
        scroll={{ x: 900 }}
        locale={{
          emptyText: (
            <Empty description={t('smsLinks.clicksEmpty')}>
              <Link to="/s_sendSetting/track">{t('smsLinks.toSetting')}</Link>
            </Empty>
          ),
        }}
        columns={[
          { title: t('smsReplies.phone'), dataIndex: 'phone', width: 150 },
          {
            title: t('smsLinks.url'),
            render: (_, c) => (
              <>
                {c.machine && (
                  <Tooltip title={t('smsLinks.machineHint')}>
                    <Tag className="sms-link-machine">{t('smsLinks.machine')}</Tag>
                  </Tooltip>
                )}
                {c.url}
              </>
            ),
          },
          { title: 'smsId', dataIndex: 'smsId', width: 240 },
          { title: t('smsLinks.at'), render: (_, c) => when(c.at), width: 170 },
        ]}
      />
    </Card>
  );
}
