import { DeleteOutlined, PaperClipOutlined, UploadOutlined } from '@ant-design/icons';
import { formatMessage } from '@herald/shared/errors';
import {
  TIMED_TASK_MAX_FILES,
  type TimedTaskFileView,
  timedTaskFileProblem,
  timedTaskFilesProblem,
} from '@herald/shared/schemas/timed-task.schema';
import { Button, Flex, Progress, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchUploadProgress, uploadTimedTaskFile } from '../../../api/timed-tasks.api.ts';
import { HttpError } from '../../../infra/http/http-errors.ts';

const POLL_MS = 400;

const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/**
 * The attachments of a timed task: each chosen file is checked by the shared rules (not empty,
 * not js/com/exe/sh/cs, at most 10 and 50M in all), then uploaded at once to
 * `/task/taskTemplates/upload` while a bar follows its bytes (`upload/progress`); the field holds
 * the ids. `known` gives the files a saved task names.
 */
export function TimedTaskFilesField({
  value = [],
  onChange,
  known = [],
}: {
  value?: number[];
  onChange?: (value: number[]) => void;
  known?: TimedTaskFileView[];
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh-cn';
  const input = useRef<HTMLInputElement>(null);
  const [files, setFiles] = useState<Map<number, TimedTaskFileView>>(
    () => new Map(known.map((f) => [f.id, f])),
  );
  const [uploading, setUploading] = useState<{ name: string; percent: number } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const choose = async (chosen: FileList | null) => {
    const file = chosen?.[0];
    if (input.current) input.current.value = '';
    if (!file) return;
    const sizes = [...value.map((id) => files.get(id)?.size ?? 0), file.size];
    const problem =
      timedTaskFileProblem({ name: file.name, size: file.size }) ?? timedTaskFilesProblem(sizes);
    if (problem) {
      setError(formatMessage(problem, lang, { max: TIMED_TASK_MAX_FILES }));
      return;
    }
    setError(null);
    setUploading({ name: file.name, percent: 0 });
    const key = crypto.randomUUID();
    const timer = setInterval(() => {
      fetchUploadProgress(key)
        .then((p) =>
          setUploading(
            (u) => u && { ...u, percent: Math.min(99, Math.floor((p.received / file.size) * 100)) },
          ),
        )
        .catch(() => undefined);
    }, POLL_MS);
    try {
      const uploaded = await uploadTimedTaskFile(file, key);
      setFiles((current) => new Map(current).set(uploaded.id, uploaded));
      onChange?.([...value, uploaded.id]);
    } catch (failure) {
      setError(failure instanceof HttpError ? failure.message : t('timedTasks.uploadFailed'));
    } finally {
      clearInterval(timer);
      setUploading(null);
    }
  };

  return (
    <Flex vertical gap={8} className="timed-task-files">
      {value.map((id) => {
        const file = files.get(id) ?? known.find((f) => f.id === id);
        return (
          <Flex key={id} gap={8} align="center" className="timed-task-file" data-file-id={id}>
            <PaperClipOutlined />
            <Typography.Text>{file ? `${file.name} (${sizeText(file.size)})` : `#${id}`}</Typography.Text>
            <Button
              size="small"
              type="text"
              danger
              icon={<DeleteOutlined />}
              aria-label={t('timedTasks.removeFile')}
              className="timed-task-file-remove"
              onClick={() => onChange?.(value.filter((other) => other !== id))}
            />
          </Flex>
        );
      })}
      {uploading && (
        <div className="timed-task-upload-progress">
          <Typography.Text type="secondary">
            {t('timedTasks.uploading', { name: uploading.name })}
          </Typography.Text>
          <Progress percent={uploading.percent} size="small" status="active" />
        </div>
      )}
      {value.length < TIMED_TASK_MAX_FILES && (
        <div>
          <Button
            icon={<UploadOutlined />}
            loading={uploading !== null}
            onClick={() => input.current?.click()}
            className="timed-task-upload"
          >
            {t('timedTasks.upload')}
          </Button>
        </div>
      )}
      <input
        ref={input}
        type="file"
        hidden
        className="timed-task-file-input"
        onChange={(event) => void choose(event.target.files)}
      />
      <Typography.Text type="secondary">{t('timedTasks.uploadHint')}</Typography.Text>
      {error && (
        <Typography.Text type="danger" className="timed-task-file-error">
          {error}
        </Typography.Text>
      )}
    </Flex>
  );
}
