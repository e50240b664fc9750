import { SMS_COMPLIANCE_REASON_MAX, smsComplianceRejectSchema } from '@herald/shared/schemas/sms-sign.schema';
import { useMutation } from '@tanstack/react-query';
import { Flex, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { rejectFiling, rejectSign, type SmsUploadView } from '../../api/sms-signs.api.ts';
import { zodRule } from '../../components/form-rules.ts';
import { toastSuccess } from '../send-relative/template-toast.ts';
import { SmsFilePreview } from '../sms-send-relative/SmsUploadField.tsx';

/** What the operator is rejecting: a signature or a filing, named in the dialog's title. */
export interface Rejecting {
  kind: 'sign' | 'filing';
  id: number;
  label: string;
}

/** Files the operator opens: images as thumbnails (click to enlarge), pdfs as links. */
export function Files({ files }: { files: (SmsUploadView | null)[] }) {
  const shown = files.filter((f): f is SmsUploadView => f !== null);
  if (shown.length === 0) return <>—</>;
  return (
    <Flex gap={8} wrap className="review-files">
      {shown.map((file) => (
        <SmsFilePreview key={file.id} file={file} forOperator />
      ))}
    </Flex>
  );
}

/** The reason is required (shared schema): the customer sees it beside the signature or filing. */
export function RejectModal({
  target,
  onClose,
}: {
  target: Rejecting | null;
  onClose: (done: boolean) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ reason: string }>();
  const reject = useMutation({
    mutationFn: ({ kind, id, reason }: Rejecting & { reason: string }) =>
      kind === 'sign' ? rejectSign(id, reason) : rejectFiling(id, reason),
    onSuccess: () => {
      toastSuccess(t('smsSigns.review.rejected'));
      form.resetFields();
      onClose(true);
    },
  });
  return (
    <Modal
      open={target !== null}
      title={target ? t('smsSigns.review.rejectTitle', { name: target.label }) : ''}
      okText={t('smsSigns.review.reject')}
      cancelText={t('smsSigns.cancel')}
      okButtonProps={{ danger: true, loading: reject.isPending, className: 'review-reject-ok' }}
      onCancel={() => onClose(false)}
      onOk={async () => {
        const { reason } = await form.validateFields();
        if (target) reject.mutate({ ...target, reason });
      }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical">
        <Form.Item
          name="reason"
          label={t('smsSigns.review.reason')}
          rules={[zodRule(smsComplianceRejectSchema.shape.reason)]}
        >
          <Input.TextArea
            rows={4}
            maxLength={SMS_COMPLIANCE_REASON_MAX}
            showCount
            className="review-reason"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
