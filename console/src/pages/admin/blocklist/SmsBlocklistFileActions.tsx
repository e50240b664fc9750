import { Button, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { exportSmsBlocklist } from '../../../api/admin-sms-blocklist.api.ts';
import { VerifyIdentityModal } from '../../../components/VerifyIdentityModal.tsx';
import { httpEffects } from '../../../infra/http/http-effects.ts';
import { HttpError } from '../../../infra/http/http-errors.ts';
import { ERROR_TOAST_SECONDS } from '../../../infra/http/http-exceptions.ts';
import { SmsBlocklistImportModal } from './SmsBlocklistImportModal.tsx';

/**
 * Import and export of the global list. The export is a download, which asks for the download
 * verification first when the operator switched it on, then runs again.
 */
export function SmsBlocklistFileActions({ onImported }: { onImported: () => unknown }) {
  const { t } = useTranslation();
  const [importing, setImporting] = useState(false);
  const [verifying, setVerifying] = useState(false);
  const [exporting, setExporting] = useState(false);

  const download = async () => {
    setExporting(true);
    try {
      await exportSmsBlocklist();
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
    <Space>
      <Button className="admin-blocklist-import" onClick={() => setImporting(true)}>
        {t('adminSmsBlocklist.import')}
      </Button>
      <Button className="admin-blocklist-export" loading={exporting} onClick={download}>
        {t('adminSmsBlocklist.export')}
      </Button>
      <SmsBlocklistImportModal open={importing} onClose={() => setImporting(false)} onImported={onImported} />
      <VerifyIdentityModal
        kind="download"
        open={verifying}
        onCancel={() => setVerifying(false)}
        onVerified={() => {
          setVerifying(false);
          void download();
        }}
      />
    </Space>
  );
}
