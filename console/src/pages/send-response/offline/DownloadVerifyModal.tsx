import type { VerifyWay } from '@herald/shared/schemas/security-settings.schema';
import { verifyCodeSchema } from '@herald/shared/schemas/security-settings.schema';
import { Button, Form, Input, Modal, Radio, Space, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchVerifyWays, sendVerifyCode, type VerifyWayOption } from '../../../api/security.api.ts';
import { applyFieldErrors, zodRule } from '../../../components/form-rules.ts';
import { verifyDownload } from './offline-exports.api.ts';

/**
 * Download verification (console-spec §6 "Verification can be required … for data download"):
 * opened when a download answers VERIFY_DOWNLOAD_REQUIRED; a code by SMS, email or the
 * authenticator marks this session verified for downloads for ten minutes, then the download
 * runs again. The same steps as the sensitive-operation dialog, ending at `/verify/download`.
 */
export function DownloadVerifyModal({
  open,
  onVerified,
  onCancel,
}: {
  open: boolean;
  onVerified: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ way: VerifyWay; code: string }>();
  const [ways, setWays] = useState<VerifyWayOption[] | null>(null);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const way = Form.useWatch('way', form);

  useEffect(() => {
    if (!open) return;
    setWays(null);
    setSent(false);
    fetchVerifyWays()
      .then((list) => {
        setWays(list);
        if (list[0]) form.setFieldValue('way', list[0].way);
      })
      .catch(() => setWays([]));
  }, [open, form]);

  const fail = (error: unknown) => {
    if (!applyFieldErrors(form, error)) {
      form.setFields([{ name: 'code', errors: [error instanceof Error ? error.message : String(error)] }]);
    }
  };
  const send = () => {
    if (way === 'sms' || way === 'email') sendVerifyCode(way).then(() => setSent(true), fail);
  };
  const submit = async (values: { way: VerifyWay; code: string }) => {
    setBusy(true);
    try {
      await verifyDownload(values.way, values.code.trim());
      onVerified();
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('exports.verifyTitle')}
      onCancel={onCancel}
      onOk={() => form.submit()}
      okText={t('security.verifyConfirm')}
      confirmLoading={busy}
      destroyOnHidden
      className="export-verify-modal"
    >
      <p>{t('exports.verifyHint')}</p>
      {ways === null ? (
        <Spin />
      ) : ways.length === 0 ? (
        <p>{t('security.verifyNoWay')}</p>
      ) : (
        <Form form={form} layout="vertical" onFinish={submit}>
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
                <Button onClick={send}>{sent ? t('security.verifyResend') : t('security.verifySend')}</Button>
              )}
            </Space.Compact>
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
