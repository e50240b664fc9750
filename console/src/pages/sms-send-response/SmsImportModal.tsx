import {
  SMS_IMPORT_INVALID_SHOWN,
  SMS_IMPORT_MAX_BYTES,
  SMS_IMPORT_MAX_LINES,
  type SmsImportResult,
} from '@herald/shared/schemas/sms-interception.schema';
import { Alert, Button, Input, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { importSmsBlocklist } from '../../api/admin-sms-blocklist.api.ts';
import { importSmsList, type SmsListKind } from '../../api/sms-interception.api.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { httpEffects } from '../../infra/http/http-effects.ts';
import { ERROR_TOAST_SECONDS, SUCCESS_TOAST_SECONDS } from '../../infra/http/http-exceptions.ts';

/**
 * Imports a txt or csv file into a number list, the keyword filter, or (an operator's) the
 * platform's global list. The server reads and checks the whole file and writes it in one go or
 * not at all; the modal then shows what it counted (new, already there, repeated, invalid) and
 * the first invalid lines.
 */
/** A list of the SMS response screens, or the operator's global list. */
export type SmsFileKind = SmsListKind | 'global';

export function SmsImportModal({
  kind,
  open,
  onClose,
  onImported,
}: {
  kind: SmsFileKind;
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
      if (chosen.size > SMS_IMPORT_MAX_BYTES) throw new Error(t('smsImport.tooLarge', { max: maxMb }));
      const body = {
        filename: chosen.name,
        content: await chosen.text(),
        ...(kind !== 'keyword' && reason.trim() ? { reason: reason.trim() } : {}),
      };
      const done = kind === 'global' ? await importSmsBlocklist(body) : await importSmsList(kind, body);
      setResult(done);
      setFile(null);
      setInputKey((k) => k + 1);
      httpEffects().toast('success', t('smsImport.result', counts(done)), SUCCESS_TOAST_SECONDS);
      await onImported();
    },
    (e) => {
      const message = e instanceof Error ? e.message : String(e);
      setError(message);
      httpEffects().toast('error', message, ERROR_TOAST_SECONDS);
    },
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
      title={t(`smsImport.importTitle.${kind}`)}
      className="sms-import-modal"
      onCancel={close}
      destroyOnHidden
      footer={
        <Space>
          <Button className="sms-import-close" onClick={close}>
            {t(result ? 'smsImport.close' : 'smsImport.cancel')}
          </Button>
          <Button
            type="primary"
            className="sms-import-ok"
            loading={saving}
            disabled={!file}
            onClick={() => file && submit(file)}
          >
            {t('smsImport.import')}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">
        {t(kind === 'keyword' ? 'smsImport.hint.keyword' : 'smsImport.hint.phones', {
          max: SMS_IMPORT_MAX_LINES.toLocaleString('en'),
        })}
      </Typography.Paragraph>
      <Space direction="vertical" style={{ width: '100%' }}>
        <input
          key={inputKey}
          type="file"
          accept=".txt,.csv,text/plain,text/csv"
          className="sms-import-file"
          aria-label={t('smsImport.chooseFile')}
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        />
        {kind !== 'keyword' && (
          <Input
            maxLength={200}
            value={reason}
            placeholder={t('smsImport.reason')}
            className="sms-import-reason"
            onChange={(e) => setReason(e.target.value)}
          />
        )}
      </Space>
      {error && <Alert type="error" showIcon style={{ marginTop: 12 }} title={error} />}
      {result && <ImportSummary result={result} />}
    </Modal>
  );
}

function ImportSummary({ result }: { result: SmsImportResult }) {
  const { t } = useTranslation();
  return (
    <Alert
      type={result.invalid > 0 ? 'warning' : 'success'}
      showIcon
      className="sms-import-result"
      style={{ marginTop: 12 }}
      title={t('smsImport.result', counts(result))}
      description={
        result.invalidLines.length > 0 && (
          <div className="sms-import-invalid">
            <div>{t('smsImport.invalidTitle', { count: SMS_IMPORT_INVALID_SHOWN })}</div>
            {result.invalidLines.map((l) => (
              <div key={l.line}>{t('smsImport.invalidLine', { line: l.line, text: l.text })}</div>
            ))}
          </div>
        )
      }
    />
  );
}

function counts({ imported, existing, duplicates, invalid }: SmsImportResult) {
  return { imported, existing, duplicates, invalid };
}
