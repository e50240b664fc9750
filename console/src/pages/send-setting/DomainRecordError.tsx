import { formatMessage } from '@herald/shared/errors';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DomainRecordView } from '../../api/domains.api.ts';
import { currentLang } from '../../stores/i18n.ts';

type RecordProblem = Pick<DomainRecordView, 'error' | 'errorCode' | 'errorParams'>;

/**
 * A record's problem in the reader's language, from the check's code and parameters. A check made
 * before the codes existed left only an English sentence, shown as it is until the next check.
 */
export function recordErrorText(record: RecordProblem): string | null {
  return record.errorCode
    ? formatMessage(record.errorCode, currentLang(), record.errorParams ?? {})
    : record.error;
}

export function DomainRecordError({ record }: { record: RecordProblem }) {
  useTranslation(); // re-render when the language changes
  const text = recordErrorText(record);
  if (!text) return null;
  return (
    <Typography.Text type="danger" style={{ overflowWrap: 'anywhere' }} className="record-error">
      {text}
    </Typography.Text>
  );
}
