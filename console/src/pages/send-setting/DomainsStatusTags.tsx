import type {
  DomainRecordKind,
  DomainRecordStatus,
  DomainStatus,
} from '@herald/shared/schemas/domain.schema';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DomainRecordView } from '../../api/domains.api.ts';
import { recordErrorText } from './DomainRecordError.tsx';

/** The tags of a domain's state and of each record's state, shared by the list and the config screen. */
const DOMAIN_STATUS = {
  unverified: { color: 'error', key: 'domains.statusUnverified', help: 'domains.statusHelpUnverified' },
  usable: { color: 'warning', key: 'domains.statusUsable', help: 'domains.statusHelpUsable' },
  verified: { color: 'success', key: 'domains.statusVerified', help: 'domains.statusHelpVerified' },
} as const;

const RECORD_STATUS = {
  pending: { color: 'default', key: 'domains.recordPending' },
  ok: { color: 'success', key: 'domains.recordOk' },
  missing: { color: 'warning', key: 'domains.recordMissing' },
  invalid: { color: 'error', key: 'domains.recordInvalid' },
  error: { color: 'orange', key: 'domains.recordError' },
} as const;

export const RECORD_KIND_KEYS = {
  spf: 'domains.kindSpf',
  dkim: 'domains.kindDkim',
  mx: 'domains.kindMx',
  dmarc: 'domains.kindDmarc',
} as const satisfies Record<DomainRecordKind, string>;

export function DomainStatusTag({ status }: { status: DomainStatus }) {
  const { t } = useTranslation();
  const s = DOMAIN_STATUS[status];
  return (
    <Tooltip title={t(s.help)}>
      <Tag color={s.color} className={`domain-status domain-status-${status}`}>
        {t(s.key)}
      </Tag>
    </Tooltip>
  );
}

export function RecordStatusTag({ status }: { status: DomainRecordStatus }) {
  const { t } = useTranslation();
  const s = RECORD_STATUS[status];
  return (
    <Tag color={s.color} className={`record-status record-status-${status}`}>
      {t(s.key)}
    </Tag>
  );
}

/** One small tag per record, named by its kind and coloured by its state; the problem on hover. */
export function RecordTags({ records }: { records: DomainRecordView[] }) {
  const { t } = useTranslation();
  return (
    <>
      {records.map((r) => (
        <Tooltip key={r.kind} title={recordErrorText(r) ?? t(RECORD_STATUS[r.status].key)}>
          <Tag color={RECORD_STATUS[r.status].color} className={`record-tag record-${r.kind}-${r.status}`}>
            {t(RECORD_KIND_KEYS[r.kind])}
          </Tag>
        </Tooltip>
      ))}
    </>
  );
}
