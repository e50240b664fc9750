import { type GoogleQrCodeView, verifyCodeSchema } from '@herald/shared/schemas/security-settings.schema';
import { Button, Card, Flex, Form, Input, Modal, Popconfirm, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  bindGoogleAuth,
  fetchGoogleQrCode,
  fetchSensitiveVerifiedUntil,
  unbindGoogleAuth,
} from '../../../api/security.api.ts';
import { applyFieldErrors, zodRule } from '../../../components/form-rules.ts';
import type { SensitiveRunOptions } from '../../../components/use-sensitive-action.tsx';

/**
 * Binding the Google authenticator: verify the session first (binding always needs it), show the
 * QR code and its secret, and bind with the app's first code. Unbinding asks for confirmation.
 */
interface Props {
  bound: boolean;
  run: <T>(action: () => Promise<T>, options?: SensitiveRunOptions) => Promise<T | undefined>;
  verify: () => Promise<boolean>;
  onChanged: () => void;
}

export function GoogleAuthCard({ bound, run, verify, onChanged }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ code: string }>();
  const [qr, setQr] = useState<GoogleQrCodeView | null>(null);
  const [starting, setStarting] = useState(false);
  const [binding, setBinding] = useState(false);

  const start = async () => {
    setStarting(true);
    try {
      const until = await fetchSensitiveVerifiedUntil();
      if (!until || until < Date.now() + 30_000) {
        if (!(await verify())) return;
      }
      setQr(await fetchGoogleQrCode());
    } catch {
      // the client showed the error
    } finally {
      setStarting(false);
    }
  };

  const bind = async ({ code }: { code: string }) => {
    setBinding(true);
    const done = await run(() => bindGoogleAuth(code.trim()), {
      onError: (error) => applyFieldErrors(form, error),
    });
    setBinding(false);
    if (done !== undefined) {
      setQr(null);
      form.resetFields();
      onChanged();
    }
  };

  const unbind = async () => {
    await run(unbindGoogleAuth, { successToast: false });
    onChanged();
  };

  return (
    <Card title={t('security.googleTitle')} className="google-auth-card">
      <Flex gap="middle" align="center" wrap>
        <Typography.Text type="secondary">{t('security.googleHint')}</Typography.Text>
        {bound ? (
          <>
            <Tag color="success" className="google-auth-state">
              {t('security.googleBound')}
            </Tag>
            <Popconfirm title={t('security.googleUnbindConfirm')} onConfirm={unbind}>
              <Button danger className="google-auth-unbind">
                {t('security.googleUnbind')}
              </Button>
            </Popconfirm>
          </>
        ) : (
          <>
            <Tag className="google-auth-state">{t('security.googleUnbound')}</Tag>
            <Button type="primary" onClick={start} loading={starting} className="google-auth-bind">
              {t('security.googleBind')}
            </Button>
          </>
        )}
      </Flex>
      <Modal
        open={qr !== null}
        title={t('security.googleBindTitle')}
        onCancel={() => setQr(null)}
        onOk={() => form.submit()}
        confirmLoading={binding}
        destroyOnHidden
        className="google-auth-modal"
      >
        {qr && (
          <Flex vertical gap="small" align="center">
            <Typography.Text>{t('security.googleScan')}</Typography.Text>
            <img
              src={qr.qrCode}
              alt={t('security.googleQrAlt')}
              width={180}
              height={180}
              className="google-qr"
            />
            <Typography.Text>
              {t('security.googleSecret')}{' '}
              <Typography.Text code copyable className="google-secret">
                {qr.secret}
              </Typography.Text>
            </Typography.Text>
            <Form form={form} layout="vertical" onFinish={bind} style={{ width: '100%' }}>
              <Form.Item name="code" label={t('security.googleCode')} rules={[zodRule(verifyCodeSchema)]}>
                <Input name="googleCode" maxLength={6} autoComplete="one-time-code" />
              </Form.Item>
            </Form>
          </Flex>
        )}
      </Modal>
    </Card>
  );
}
