import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';

/** The long-stay notice (console-spec §4 step 5): the page is stale, reload it. */
export default function IdleNotice() {
  const { t } = useTranslation();
  return (
    <Modal
      open
      title={t('shell.idleTitle')}
      okText={t('common.reload')}
      onOk={() => window.location.reload()}
      closable={false}
      mask={{ closable: false }}
      cancelButtonProps={{ style: { display: 'none' } }}
      data-testid="idle-notice"
    >
      <p>{t('shell.idleNotice')}</p>
    </Modal>
  );
}
