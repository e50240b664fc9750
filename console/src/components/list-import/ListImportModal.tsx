import {
  LIST_IMPORT_ENDED,
  LIST_IMPORT_EXTENSIONS,
  type ListImportView,
} from '@herald/shared/schemas/list-import.schema';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Button, Flex, Modal, Progress, Space, Typography, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { httpEffects } from '../../infra/http/http-effects.ts';
import { ERROR_TOAST_SECONDS } from '../../infra/http/http-exceptions.ts';

const POLL_MS = 1000;
const ACCEPT = LIST_IMPORT_EXTENSIONS.map((e) => `.${e}`).join(',');
const ended = (view: ListImportView) => LIST_IMPORT_ENDED.includes(view.status);

/** The calls of one kind of list's import (an SMS contact list's, an address list's). */
export interface ListImportApi {
  /** Names the import's queries: one kind's never mix with another's. */
  key: string;
  upload: (listId: number, file: File) => Promise<ListImportView>;
  progress: (query: { importId: number } | { listId: number }) => Promise<ListImportView | null>;
  cancel: (importId: number) => Promise<ListImportView>;
  report: (importId: number) => Promise<void>;
}

/**
 * Imports a file into a list: the file is chosen and uploaded, then the import is followed by
 * polling its progress (`upload/progress`) into a bar of the bytes read, with the counts so far;
 * at the end, what was added, repeated and invalid, and the error report's link. Opened while an
 * import of the list is under way, it follows that one. `onEnded` runs once the import ends.
 */
export function ListImportModal({
  api,
  title,
  hint,
  listId,
  open,
  onClose,
  onEnded,
}: {
  api: ListImportApi;
  title: string;
  /** What the file holds, line by line. */
  hint: string;
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
    queryKey: [api.key, 'list', listId],
    queryFn: () => api.progress({ listId }),
    enabled: open && importId === null,
  });
  useEffect(() => {
    if (newest.data && !ended(newest.data)) setImportId(newest.data.id);
  }, [newest.data]);

  const progress = useQuery({
    queryKey: [api.key, importId],
    queryFn: () => api.progress({ importId: importId as number }),
    enabled: open && importId !== null,
    refetchInterval: (query) => (query.state.data && ended(query.state.data) ? false : POLL_MS),
  });
  const view = importId === null ? null : (progress.data ?? null);
  const finished = view !== null && ended(view);
  useEffect(() => {
    if (finished) void onEnded();
  }, [finished, onEnded]);

  const upload = useMutation({
    mutationFn: (chosen: File) => api.upload(listId, chosen),
    onSuccess: (started) => setImportId(started.id),
  });
  const cancel = useMutation({ mutationFn: api.cancel, onSuccess: () => progress.refetch() });

  const close = () => {
    setFile(null);
    setImportId(null);
    upload.reset();
    onClose();
  };

  return (
    <Modal
      open={open}
      title={title}
      className="list-import-modal"
      onCancel={close}
      destroyOnHidden
      footer={
        <Space>
          {view && !finished && (
            <Button
              danger
              className="list-import-cancel"
              disabled={view.status === 'cancelling'}
              loading={cancel.isPending}
              onClick={() => cancel.mutate(view.id)}
            >
              {t('listImport.cancelImport')}
            </Button>
          )}
          {!view && (
            <Button
              type="primary"
              className="list-import-start"
              disabled={!file}
              loading={upload.isPending}
              onClick={() => file && upload.mutate(file)}
            >
              {upload.isPending ? t('listImport.uploading') : t('listImport.startImport')}
            </Button>
          )}
          <Button className="list-import-close" onClick={close}>
            {t('listImport.close')}
          </Button>
        </Space>
      }
    >
      {view ? (
        <ImportProgress view={view} report={api.report} />
      ) : (
        <Flex vertical gap={12}>
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            {hint}
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
            <Button className="list-import-choose">{t('listImport.chooseFile')}</Button>
          </Upload>
        </Flex>
      )}
    </Modal>
  );
}

/** An import's bar (bytes read of the file), its state and counts, and what to do about its end. */
function ImportProgress({ view, report }: { view: ListImportView; report: ListImportApi['report'] }) {
  const { t } = useTranslation();
  const percent = view.bytesTotal > 0 ? Math.floor((view.bytesRead / view.bytesTotal) * 100) : 0;
  const status = view.status === 'done' ? 'success' : view.status === 'failed' ? 'exception' : 'active';
  const download = async () => {
    try {
      await report(view.id);
    } catch (error) {
      httpEffects().toast(
        'error',
        error instanceof Error ? error.message : String(error),
        ERROR_TOAST_SECONDS,
      );
    }
  };
  return (
    <Flex vertical gap={8} className="list-import-progress" data-status={view.status}>
      <Typography.Text strong>{view.fileName}</Typography.Text>
      <Progress percent={view.status === 'done' ? 100 : percent} status={status} />
      <Typography.Text className={`list-import-status list-import-${view.status}`}>
        {t(`listImport.importStatus.${view.status}`)}
      </Typography.Text>
      <Typography.Text className="list-import-counts">
        {t('listImport.importCounts', {
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
          message={t('listImport.importFailedNote', { error: view.error ?? '' })}
        />
      )}
      {view.status === 'cancelled' && (
        <Alert type="warning" showIcon message={t('listImport.importCancelledNote')} />
      )}
      {view.hasReport && (
        <Typography.Link className="list-import-report" onClick={download}>
          {t('listImport.report')}
        </Typography.Link>
      )}
    </Flex>
  );
}
