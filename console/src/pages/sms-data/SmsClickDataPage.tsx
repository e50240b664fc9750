import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchSmsClickData, type SmsClickDay } from '../../api/sms-links.api.ts';
import { SmsDayFigures } from './SmsDayFigures.tsx';

const LINES: ('clicks' | 'uniquePhones' | 'machine')[] = ['clicks', 'uniquePhones', 'machine'];

/**
 * Click data (console-spec §2 /s_data/clickData): per Beijing day the clicks on short links by
 * people, the numbers that clicked, and the machine clicks kept apart, over 7 or 30 days.
 */
export default function SmsClickDataPage() {
  const { t } = useTranslation();
  const label = useCallback((key: (typeof LINES)[number]) => t(`smsLinks.figures.${key}`), [t]);
  return (
    <SmsDayFigures<SmsClickDay, (typeof LINES)[number]>
      className="sms-click-data-page"
      queryKey="smsClickData"
      fetch={fetchSmsClickData}
      lines={LINES}
      label={label}
      title={t('smsLinks.dataTitle')}
      intro={t('smsLinks.dataIntro')}
    />
  );
}
