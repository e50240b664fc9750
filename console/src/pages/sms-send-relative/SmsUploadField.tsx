import { DeleteOutlined, FilePdfOutlined, UploadOutlined } from '@ant-design/icons';
import type { SmsUploadPurpose } from '@herald/shared/schemas/sms-sign.schema';
import { Button, Flex, Image, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type SmsUploadView, smsFileUrl, uploadSmsFile } from '../../api/sms-signs.api.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { HttpError } from '../../infra/http/http-errors.ts';

/** How an uploaded file is shown: an image as a thumbnail, a pdf as a link that opens it. */
export function SmsFilePreview({
  file,
  forOperator = false,
}: {
  file: SmsUploadView;
  forOperator?: boolean;
}) {
  const url = smsFileUrl(file.id, forOperator);
  if (file.contentType === 'application/pdf') {
    return (
      <Typography.Link href={url} target="_blank" rel="noreferrer" className="sms-file-pdf" title={file.name}>
        <FilePdfOutlined /> {file.name}
      </Typography.Link>
    );
  }
  return (
    <Image
      src={url}
      alt={file.name}
      title={file.name}
      width={88}
      height={88}
      style={{ objectFit: 'cover', border: '1px solid var(--ant-color-border, #d9d9d9)', borderRadius: 6 }}
      className="sms-file-image"
    />
  );
}

type Value = number | number[] | null | undefined;

/**
 * A form field of uploaded files (signature documents, the commitment book): each chosen file is
 * uploaded at once to `/sms/uploads` and the field holds its id (or ids, when `max` > 1), which
 * the shared schema checks with the rest of the form. The server decides what a file is by its
 * bytes; its refusal is shown under the field. `known` gives the files a saved record names.
 */
export function SmsUploadField({
  value,
  onChange,
  purpose,
  max = 1,
  imagesOnly = false,
  known = [],
  className,
}: {
  value?: Value;
  onChange?: (value: Value) => void;
  purpose: SmsUploadPurpose;
  max?: number;
  imagesOnly?: boolean;
  known?: SmsUploadView[];
  className?: string;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [files, setFiles] = useState<Map<number, SmsUploadView>>(new Map());
  const [error, setError] = useState<string | null>(null);

  const ids = value == null ? [] : Array.isArray(value) ? value : [value];
  const emit = (next: number[]) => onChange?.(max > 1 ? next : (next[0] ?? null));
  const full = ids.length >= max;

  const upload = useFormSave(
    async (file: File) => {
      setError(null);
      const uploaded = await uploadSmsFile(purpose, file);
      setFiles((current) => new Map(current).set(uploaded.id, uploaded));
      emit(max > 1 ? [...ids, uploaded.id] : [uploaded.id]);
    },
    (failure) => setError(failure instanceof HttpError ? failure.message : t('smsSigns.upload.failed')),
  );

  const choose = (chosen: FileList | null) => {
    const file = chosen?.[0];
    if (input.current) input.current.value = '';
    if (!file) return;
    upload.submit(file);
  };

  return (
    <Flex vertical gap={8} className={className}>
      <Flex gap={12} wrap align="center">
        {ids.map((id) => {
          const file = files.get(id) ?? known.find((f) => f.id === id);
          return (
            <Flex key={id} vertical align="center" gap={4} className="sms-upload-item" data-file-id={id}>
              {file ? (
                <SmsFilePreview file={file} />
              ) : (
                <Typography.Text type="secondary">#{id}</Typography.Text>
              )}
              <Button
                size="small"
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('smsSigns.upload.remove')}
                className="sms-upload-remove"
                onClick={() => emit(ids.filter((other) => other !== id))}
              />
            </Flex>
          );
        })}
        {(!full || max === 1) && (
          <Button
            icon={<UploadOutlined />}
            loading={upload.saving}
            onClick={() => input.current?.click()}
            className="sms-upload-choose"
          >
            {ids.length > 0 && max === 1 ? t('smsSigns.upload.replace') : t('smsSigns.upload.choose')}
          </Button>
        )}
      </Flex>
      <input
        ref={input}
        type="file"
        style={{ display: 'none' }}
        accept={imagesOnly ? '.png,.jpg,.jpeg' : '.png,.jpg,.jpeg,.pdf'}
        onChange={(event) => choose(event.target.files)}
      />
      <Typography.Text type="secondary">
        {imagesOnly
          ? t('smsSigns.upload.imageHint')
          : max > 1
            ? t('smsSigns.upload.hintMany', { max })
            : t('smsSigns.upload.hint')}
      </Typography.Text>
      {error && (
        <Typography.Text type="danger" className="sms-upload-error">
          {error}
        </Typography.Text>
      )}
    </Flex>
  );
}
