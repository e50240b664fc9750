import type { SmsCount } from '@herald/shared/sms/sms-count';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** The counter under an SMS text: characters with the signature, billed parts, per-part limit, encoding. */
export function SmsCountLine({ count }: { count: SmsCount }) {
  const { t } = useTranslation();
  return (
    <Typography.Text
      type="secondary"
      className="sms-count-line"
      data-parts={count.parts}
      data-characters={count.characters}
    >
      {t('smsTemplates.counter', {
        characters: count.characters,
        parts: count.parts,
        perPart: count.perPart,
        encoding: t(`smsTemplates.encodings.${count.encoding}`),
      })}
    </Typography.Text>
  );
}
