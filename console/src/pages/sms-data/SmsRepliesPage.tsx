import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchSmsReplyData, type SmsReplyDay } from '../../api/sms-replies.api.ts';
import { SmsDayFigures } from './SmsDayFigures.tsx';

const LINES: ('replies' | 'optOuts')[] = ['replies', 'optOuts'];

/**
 * Reply data (console-spec §2 /s_data/replay): per Beijing day the replies handsets sent and how
 * many of them were opt-outs, over the last 7 or 30 days.
 */
export default function SmsRepliesPage() {
  const { t } = useTranslation();
  const label = useCallback((key: (typeof LINES)[number]) => t(`smsReplies.figures.${key}`), [t]);
  return (
    <SmsDayFigures<SmsReplyDay, (typeof LINES)[number]>
      className="sms-reply-data-page"
      queryKey="smsReplyData"
      fetch={fetchSmsReplyData}
      lines={LINES}
      label={label}
      title={t('smsReplies.dataTitle')}
      intro={t('smsReplies.dataIntro')}
    />
  );
}
