import { SUPPRESSION_IMPORT_MAX_KB } from '@herald/shared/schemas/suppression.schema';
import { Alert, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { importEntries } from '../../../api/suppression.api.ts';
import { useFormSave } from '../../../components/use-form-save.ts';
import { httpEffects } from '../../../infra/http/http-effects.ts';
import { ERROR_TOAST_SECONDS, SUCCESS_TOAST_SECONDS } from '../../../infra/http/http-exceptions.ts';

/** Imports a txt or csv file of addresses; the server checks format, size and the 200-a-line rule. */
export function ImportAddressesModal({
  path,
  open,
  onClose,
  onSaved,
}: {
  path: 'unsubscribes' | 'block';
  open: boolean;
  onClose: () => void;
  onSaved: () => unknown;
}) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);

  const { submit: save, saving } = useFormSave(
    async (chosen: File) => {
      setError(null);
      if (chosen.size > SUPPRESSION_IMPORT_MAX_KB * 1024 * 4) throw new Error(t('suppression.importHint'));
      const result = await importEntries(path, { filename: chosen.name, content: await chosen.text() });
      const text = result.invalidCount
        ? t('suppression.importedInvalid', { count: result.imported, invalid: result.invalidCount })
        : t('suppression.imported', { count: result.imported });
      httpEffects().toast('success', text, SUCCESS_TOAST_SECONDS);
      setFile(null);
      await onSaved();
    },
    (e) => {
      const message = e instanceof Error ? e.message : String(e);
      setError(message);
      httpEffects().toast('error', message, ERROR_TOAST_SECONDS);
    },
  );
  const submit = () => {
    if (file) save(file);
  };

  return (
    <Modal
      open={open}
      title={t('suppression.importTitle')}
      className="suppression-import-modal"
      okText={t('suppression.import')}
      cancelText={t('suppression.cancel')}
      okButtonProps={{ loading: saving, disabled: !file, className: 'suppression-import-ok' }}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('suppression.importHint')}</Typography.Paragraph>
      <input
        type="file"
        accept=".txt,.csv,text/plain,text/csv"
        className="suppression-import-file"
        aria-label={t('suppression.chooseFile')}
        onChange={(e) => setFile(e.target.files?.[0] ?? null)}
      />
      {error && <Alert type="error" showIcon style={{ marginTop: 12 }} title={error} />}
    </Modal>
  );
}
