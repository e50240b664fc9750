import type { VerifyWay, VerifyWayOption } from '@herald/shared/schemas/security-settings.schema';
import { verifyCodeSchema } from '@herald/shared/schemas/security-settings.schema';
import { Button, Form, Input, Modal, Radio, Space, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  checkDownloadVerifyCode,
  checkVerifyCode,
  fetchVerifyWays,
  sendVerifyCode,
} from '../api/security.api.ts';
import { applyFieldErrors, zodRule } from './form-rules.ts';
import { useFormSave } from './use-form-save.ts';

/**
 * The security verification (console-spec §7 "Security"): pick a way, get a code by SMS or email
 * (or read the authenticator), and the server marks this session verified for ten minutes.
 * - `sys` (the default), for sensitive operations: opened by useSensitiveAction when a change
 *   answers 403 VERIFY_REQUIRED; ends at `/verify/sys`.
 * - `download`, for data downloads (console-spec §6 "Verification can be required … for data
 *   download"): opened when a download answers VERIFY_DOWNLOAD_REQUIRED; ends at
 *   `/verify/download`, then the download runs again.
 */
export type VerifyKind = 'sys' | 'download';

const KINDS = {
  sys: {
    check: checkVerifyCode,
    title: 'security.verifyTitle',
    hint: 'security.verifyHint',
    className: 'verify-identity-modal',
  },
  download: {
    check: checkDownloadVerifyCode,
    title: 'exports.verifyTitle',
    hint: 'exports.verifyHint',
    className: 'export-verify-modal',
  },
} as const;

interface Props {
  open: boolean;
  onVerified: () => void;
  onCancel: () => void;
  kind?: VerifyKind;
}

export function VerifyIdentityModal({ open, onVerified, onCancel, kind = 'sys' }: Props) {
  const { t } = useTranslation();
  const { check, title, hint, className } = KINDS[kind];
  const [form] = Form.useForm<{ way: VerifyWay; code: string }>();
  const [ways, setWays] = useState<VerifyWayOption[] | null>(null);
  const [sent, setSent] = useState(false);
  const way = Form.useWatch('way', form);

  useEffect(() => {
    if (!open) return;
    setWays(null);
    setSent(false);
    form.resetFields();
    fetchVerifyWays()
      .then((list) => {
        setWays(list);
        const first = list[0];
        if (first) form.setFieldValue('way', first.way);
      })
      .catch(() => setWays([]));
  }, [open, form]);

  const fail = (error: unknown) => {
    if (!applyFieldErrors(form, error)) {
      form.setFields([{ name: 'code', errors: [error instanceof Error ? error.message : String(error)] }]);
    }
  };

  const sendCode = useFormSave(async (chosen: 'sms' | 'email') => {
    await sendVerifyCode(chosen);
    setSent(true);
  }, fail);
  const send = () => {
    if (way !== 'sms' && way !== 'email') return;
    sendCode.submit(way);
  };

  const verify = useFormSave(async (values: { way: VerifyWay; code: string }) => {
    await check(values.way, values.code.trim());
    onVerified();
  }, fail);

  return (
    <Modal
      open={open}
      title={t(title)}
      onCancel={onCancel}
      onOk={() => form.submit()}
      okText={t('security.verifyConfirm')}
      confirmLoading={verify.saving}
      destroyOnHidden
      className={className}
    >
      <p>{t(hint)}</p>
      {ways === null ? (
        <Spin />
      ) : ways.length === 0 ? (
        <p>{t('security.verifyNoWay')}</p>
      ) : (
        <Form form={form} layout="vertical" onFinish={verify.submit}>
          <Form.Item name="way" label={t('security.verifyWay')}>
            <Radio.Group>
              {ways.map((option) => (
                <Radio key={option.way} value={option.way}>
                  {t(`security.way.${option.way}`)}
                  {option.target ? ` (${option.target})` : ''}
                </Radio>
              ))}
            </Radio.Group>
          </Form.Item>
          <Form.Item label={t('security.verifyCode')} required>
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item name="code" noStyle rules={[zodRule(verifyCodeSchema)]}>
                <Input name="verifyCode" maxLength={6} autoComplete="one-time-code" />
              </Form.Item>
              {way !== 'google' && (
                <Button onClick={send} loading={sendCode.saving} className="verify-send-code">
                  {sent ? t('security.verifyResend') : t('security.verifySend')}
                </Button>
              )}
            </Space.Compact>
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
