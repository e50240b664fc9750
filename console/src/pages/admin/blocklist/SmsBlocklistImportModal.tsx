import {
  SMS_IMPORT_MAX_BYTES,
  SMS_IMPORT_MAX_LINES,
  type SmsImportResult,
} from '@herald/shared/schemas/sms-interception.schema';
import { Alert, Button, Input, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { importSmsBlocklist } from '../../../api/admin-sms-blocklist.api.ts';
import { useFormSave } from '../../../components/use-form-save.ts';

/**
 * Imports a txt or csv file of numbers into the global list. The server checks the whole file
 * and writes all of it or nothing; the modal then shows what it counted and the first invalid
 * lines.
 */
export function SmsBlocklistImportModal({
  open,
  onClose,
  onImported,
}: {
  open: boolean;
  onClose: () => void;
  onImported: () => unknown;
}) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<SmsImportResult | null>(null);
  // A new key empties the file input once its file went in, so it is not imported twice.
  const [inputKey, setInputKey] = useState(0);
  const maxMb = SMS_IMPORT_MAX_BYTES / 1024 / 1024;

  const { submit, saving } = useFormSave(
    async (chosen: File) => {
      setError(null);
      setResult(null);
      if (chosen.size > SMS_IMPORT_MAX_BYTES)
        throw new Error(t('adminSmsBlocklist.tooLarge', { max: maxMb }));
      const done = await importSmsBlocklist({
        filename: chosen.name,
        content: await chosen.text(),
        ...(reason.trim() ? { reason: reason.trim() } : {}),
      });
      setResult(done);
      setFile(null);
      setInputKey((k) => k + 1);
      await onImported();
    },
    (e) => setError(e instanceof Error ? e.message : String(e)),
  );
  const close = () => {
    setFile(null);
    setReason('');
    setError(null);
    setResult(null);
    onClose();
  };

  return (
    <Modal
      open={open}
      title={t('adminSmsBlocklist.importTitle')}
      className="admin-blocklist-import-modal"
      onCancel={close}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={close}>
            {t(result ? 'adminSmsBlocklist.close' : 'adminSmsBlocklist.cancel')}
          </Button>
          <Button
            type="primary"
            className="admin-blocklist-import-ok"
            loading={saving}
            disabled={!file}
            onClick={() => file && submit(file)}
          >
            {t('adminSmsBlocklist.import')}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">
        {t('adminSmsBlocklist.importHint', { max: SMS_IMPORT_MAX_LINES.toLocaleString('en') })}
      </Typography.Paragraph>
      <Space direction="vertical" style={{ width: '100%' }}>
        <input
          key={inputKey}
          type="file"
          accept=".txt,.csv,text/plain,text/csv"
          className="admin-blocklist-import-file"
          aria-label={t('adminSmsBlocklist.chooseFile')}
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        />
        <Input
          maxLength={200}
          value={reason}
          placeholder={t('adminSmsBlocklist.importReason')}
          onChange={(e) => setReason(e.target.value)}
        />
      </Space>
      {error && <Alert type="error" showIcon style={{ marginTop: 12 }} title={error} />}
      {result && (
        <Alert
          type={result.invalid > 0 ? 'warning' : 'success'}
          showIcon
          className="admin-blocklist-import-result"
          style={{ marginTop: 12 }}
          title={t('adminSmsBlocklist.importResult', {
            imported: result.imported,
            existing: result.existing,
            duplicates: result.duplicates,
            invalid: result.invalid,
          })}
          description={result.invalidLines.map((l) => (
            <div key={l.line}>{t('adminSmsBlocklist.invalidLine', { line: l.line, text: l.text })}</div>
          ))}
        />
      )}
    </Modal>
  );
}
