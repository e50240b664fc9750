import {
  SMS_CONTACT_IMPORT_ENDED,
  SMS_CONTACT_IMPORT_EXTENSIONS,
} from '@herald/shared/schemas/sms-contact.schema';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Button, Flex, Modal, Progress, Space, Typography, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  cancelImport,
  downloadImportReport,
  fetchImportProgress,
  type SmsContactImportView,
  uploadContacts,
} from '../../../api/sms-contacts.api.ts';
import { httpEffects } from '../../../infra/http/http-effects.ts';
import { ERROR_TOAST_SECONDS } from '../../../infra/http/http-exceptions.ts';

const POLL_MS = 1000;
const ACCEPT = SMS_CONTACT_IMPORT_EXTENSIONS.map((e) => `.${e}`).join(',');
const ended = (view: SmsContactImportView) => SMS_CONTACT_IMPORT_ENDED.includes(view.status);

/**
 * Imports a file into a list: the file is chosen and uploaded, then the import is followed by
 * polling its progress (`upload/progress`) into a bar of the bytes read, with the counts so far;
 * at the end, what was added, repeated and invalid, and the error report's link. Opened while an
 * import of the list is under way, it follows that one. `onEnded` runs once the import ends.
 */
export function ContactImportModal({
  listId,
  open,
  onClose,
  onEnded,
}: {
  listId: number;
  open: boolean;
  onClose: () => void;
  onEnded: () => unknown;
}) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [importId, setImportId] = useState<number | null>(null);

  // The list's newest import when the dialog opens: one under way is followed.
  const newest = useQuery({
    queryKey: ['smsContactImport', 'list', listId],
    queryFn: () => fetchImportProgress({ listId }),
    enabled: open && importId === null,
  });
  useEffect(() => {
    if (newest.data && !ended(newest.data)) setImportId(newest.data.id);
  }, [newest.data]);

  const progress = useQuery({
    queryKey: ['smsContactImport', importId],
    queryFn: () => fetchImportProgress({ importId: importId as number }),
    enabled: open && importId !== null,
    refetchInterval: (query) => (query.state.data && ended(query.state.data) ? false : POLL_MS),
  });
  const view = importId === null ? null : (progress.data ?? null);
  const finished = view !== null && ended(view);
  useEffect(() => {
    if (finished) void onEnded();
  }, [finished, onEnded]);

  const upload = useMutation({
    mutationFn: (chosen: File) => uploadContacts(listId, chosen),
    onSuccess: (started) => setImportId(started.id),
  });
  const cancel = useMutation({ mutationFn: cancelImport, onSuccess: () => progress.refetch() });

  const close = () => {
    setFile(null);
    setImportId(null);
    upload.reset();
    onClose();
  };

  return (
    <Modal
      open={open}
      title={t('smsContacts.importTitle')}
      className="contact-import-modal"
      onCancel={close}
      destroyOnHidden
      footer={
        <Space>
          {view && !finished && (
            <Button
              danger
              className="contact-import-cancel"
              disabled={view.status === 'cancelling'}
              loading={cancel.isPending}
              onClick={() => cancel.mutate(view.id)}
            >
              {t('smsContacts.cancelImport')}
            </Button>
          )}
          {!view && (
            <Button
              type="primary"
              className="contact-import-start"
              disabled={!file}
              loading={upload.isPending}
              onClick={() => file && upload.mutate(file)}
            >
              {upload.isPending ? t('smsContacts.uploading') : t('smsContacts.startImport')}
            </Button>
          )}
          <Button className="contact-import-close" onClick={close}>
            {t('smsContacts.close')}
          </Button>
        </Space>
      }
    >
      {view ? (
        <ImportProgress view={view} />
      ) : (
        <Flex vertical gap={12}>
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            {t('smsContacts.importHint')}
          </Typography.Paragraph>
          <Upload
            accept={ACCEPT}
            maxCount={1}
            beforeUpload={(chosen) => {
              setFile(chosen);
              return false;
            }}
            onRemove={() => setFile(null)}
            fileList={file ? [{ uid: 'chosen', name: file.name, status: 'done' }] : []}
          >
            <Button className="contact-import-choose">{t('smsContacts.chooseFile')}</Button>
          </Upload>
        </Flex>
      )}
    </Modal>
  );
}

/** An import's bar (bytes read of the file), its state and counts, and what to do about its end. */
function ImportProgress({ view }: { view: SmsContactImportView }) {
  const { t } = useTranslation();
  const percent = view.bytesTotal > 0 ? Math.floor((view.bytesRead / view.bytesTotal) * 100) : 0;
  const status = view.status === 'done' ? 'success' : view.status === 'failed' ? 'exception' : 'active';
  const report = async () => {
    try {
      await downloadImportReport(view.id);
    } catch (error) {
      httpEffects().toast(
        'error',
        error instanceof Error ? error.message : String(error),
        ERROR_TOAST_SECONDS,
      );
    }
  };
  return (
    <Flex vertical gap={8} className="contact-import-progress" data-status={view.status}>
      <Typography.Text strong>{view.fileName}</Typography.Text>
      <Progress percent={view.status === 'done' ? 100 : percent} status={status} />
      <Typography.Text className={`contact-import-status contact-import-${view.status}`}>
        {t(`smsContacts.importStatus.${view.status}`)}
      </Typography.Text>
      <Typography.Text className="contact-import-counts">
        {t('smsContacts.importCounts', {
          rows: view.rows,
          added: view.added,
          duplicates: view.duplicates,
          invalid: view.invalid,
        })}
      </Typography.Text>
      {view.status === 'failed' && (
        <Alert
          type="error"
          showIcon
          message={t('smsContacts.importFailedNote', { error: view.error ?? '' })}
        />
      )}
      {view.status === 'cancelled' && (
        <Alert type="warning" showIcon message={t('smsContacts.importCancelledNote')} />
      )}
      {view.hasReport && (
        <Typography.Link className="contact-import-report" onClick={report}>
          {t('smsContacts.report')}
        </Typography.Link>
      )}
    </Flex>
  );
}
