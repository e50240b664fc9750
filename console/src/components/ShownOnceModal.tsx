import { Alert, Button, Modal, Typography } from 'antd';
import type { ReactNode } from 'react';

/**
 * A secret the server shows once (an SMS_KEY, a gateway user's secret): the user must copy it and
 * say so before the window closes, since only its hash (or sealed copy) stays behind. `name` makes
 * the class names `<name>-modal`, `<name>-value` and `<name>-close`.
 */
export function ShownOnceModal(props: {
  name: string;
  value: string | null;
  title: string | null;
  warning: string;
  closeText: string;
  onClose: () => void;
  children?: ReactNode;
}) {
  return (
    <Modal
      open={props.value !== null}
      title={props.title}
      className={`${props.name}-modal`}
      closable={false}
      maskClosable={false}
      keyboard={false}
      destroyOnHidden
      footer={
        <Button type="primary" className={`${props.name}-close`} onClick={props.onClose}>
          {props.closeText}
        </Button>
      }
    >
      <Alert type="warning" showIcon title={props.warning} style={{ marginBottom: 16 }} />
      <Typography.Text
        code
        copyable
        className={`${props.name}-value`}
        style={{ wordBreak: 'break-all', fontSize: 15 }}
      >
        {props.value}
      </Typography.Text>
      {props.children}
    </Modal>
  );
}
