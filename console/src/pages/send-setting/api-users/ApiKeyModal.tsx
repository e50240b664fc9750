import { Alert, Button, Flex, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../components/format-time.ts';

/**
 * Shows a new API_KEY, the one time it is ever shown (after a creation or a reset): the server
 * keeps only its hash, so once this closes the key exists only where the user copied it.
 */
export function ApiKeyModal({
  issued,
  onClose,
}: {
  issued: { name: string; apiKey: string; oldKeyExpiresAt?: number | undefined } | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (!issued) return;
    try {
      await navigator.clipboard.writeText(issued.apiKey);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  const close = () => {
    setCopied(false);
    onClose();
  };

  return (
    <Modal
      open={issued !== null}
      title={issued ? t('apiUsers.keyTitle', { name: issued.name }) : null}
      className="api-key-modal"
      closable={false}
      maskClosable={false}
      keyboard={false}
      destroyOnHidden
      footer={
        <Button type="primary" className="api-key-close" onClick={close}>
          {t('apiUsers.keySaved')}
        </Button>
      }
    >
      <Alert type="warning" showIcon title={t('apiUsers.keyWarning')} style={{ marginBottom: 16 }} />
      <Flex gap="small" align="center">
        <Typography.Text code className="api-key-value" style={{ wordBreak: 'break-all', fontSize: 15 }}>
          {issued?.apiKey}
        </Typography.Text>
        <Button className="api-key-copy" onClick={copy}>
          {copied ? t('apiUsers.keyCopied') : t('apiUsers.keyCopy')}
        </Button>
      </Flex>
      {issued?.oldKeyExpiresAt !== undefined && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          {t('apiUsers.keyOldValid', { time: formatDateTime(issued.oldKeyExpiresAt) })}
        </Typography.Paragraph>
      )}
    </Modal>
  );
}
