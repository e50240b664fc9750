import { PERMISSIONS } from '@herald/shared/permissions';
import { Button, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { exportSmsBlocklist } from '../../api/admin-sms-blocklist.api.ts';
import { exportSmsList } from '../../api/sms-interception.api.ts';
import { Can } from '../../components/Can.tsx';
import { VerifyIdentityModal } from '../../components/VerifyIdentityModal.tsx';
import { httpEffects } from '../../infra/http/http-effects.ts';
import { HttpError } from '../../infra/http/http-errors.ts';
import { ERROR_TOAST_SECONDS } from '../../infra/http/http-exceptions.ts';
import { type SmsFileKind, SmsImportModal } from './SmsImportModal.tsx';

/**
 * Import and export of one interception list (or the keyword filter, or the operator's global
 * list). Both change or download data, so view-only users do not see them; the export is a
 * download, which asks for the download verification first when the user switched it on, then
 * runs again.
 */
export function SmsListFileActions({ kind, onImported }: { kind: SmsFileKind; onImported: () => unknown }) {
  const { t } = useTranslation();
  const [importing, setImporting] = useState(false);
  const [verifying, setVerifying] = useState(false);
  const [exporting, setExporting] = useState(false);

  const download = async () => {
    setExporting(true);
    try {
      if (kind === 'global') await exportSmsBlocklist();
      else await exportSmsList(kind);
    } catch (error) {
      if (error instanceof HttpError && error.code === 'VERIFY_DOWNLOAD_REQUIRED') setVerifying(true);
      else
        httpEffects().toast(
          'error',
          error instanceof Error ? error.message : String(error),
          ERROR_TOAST_SECONDS,
        );
    } finally {
      setExporting(false);
    }
  };

  return (
    <Gate global={kind === 'global'}>
      <Space>
        <Button className={`sms-import-${kind}`} onClick={() => setImporting(true)}>
          {t('smsImport.import')}
        </Button>
        <Button className={`sms-export-${kind}`} loading={exporting} onClick={download}>
          {t('smsImport.export')}
        </Button>
      </Space>
      <SmsImportModal
        kind={kind}
        open={importing}
        onClose={() => setImporting(false)}
        onImported={onImported}
      />
      <VerifyIdentityModal
        kind="download"
        open={verifying}
        onCancel={() => setVerifying(false)}
        onVerified={() => {
          setVerifying(false);
          void download();
        }}
      />
    </Gate>
  );
}

/** The customer's lists need the SMS response code; the operator's /admin screen is guarded already. */
function Gate({ global, children }: { global: boolean; children: React.ReactNode }) {
  return global ? (
    children
  ) : (
    <Can code={PERMISSIONS.SMS_RESPONSE} level="full">
      {children}
    </Can>
  );
}
