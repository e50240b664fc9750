import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Flex, Form, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  type ApiUserView,
  type DefaultSenderPath,
  fetchSender,
  saveSender,
} from '../../../api/api-users.api.ts';
import { useFormSave } from '../../../components/use-form-save.ts';

const KINDS = [
  ['triggerSender', 'trigger', 'apiUsers.triggerSender'],
  ['batchSender', 'batch', 'apiUsers.batchSender'],
] as const;

/** The account's default trigger and batch API_USER (`/config/categories/triggerSender|batchSender`). */
export function DefaultSenders({ apiUsers, editable }: { apiUsers: ApiUserView[]; editable: boolean }) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={4} style={{ marginBottom: 16 }} className="default-senders">
      <Typography.Text strong>{t('apiUsers.senders')}</Typography.Text>
      <Typography.Text type="secondary">{t('apiUsers.sendersHint')}</Typography.Text>
      <Flex gap="large" wrap>
        {KINDS.map(([kind, type, label]) => (
          <SenderSelect
            key={kind}
            kind={kind}
            label={t(label)}
            options={apiUsers.filter((u) => u.emailType === type)}
            editable={editable}
          />
        ))}
      </Flex>
    </Flex>
  );
}

function SenderSelect({
  kind,
  label,
  options,
  editable,
}: {
  kind: DefaultSenderPath;
  label: string;
  options: ApiUserView[];
  editable: boolean;
}) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const sender = useQuery({ queryKey: ['apiUsers', 'sender', kind], queryFn: () => fetchSender(kind) });
  const reload = () => queries.invalidateQueries({ queryKey: ['apiUsers', 'sender', kind] });
  // A refused change shows nothing of its own: the reload puts the saved sender back.
  const save = useFormSave(async (value: number | undefined) => {
    await saveSender(kind, value ?? null);
    await reload();
  }, reload);
  return (
    <Form.Item label={label} style={{ marginBottom: 0 }}>
      <Select<number>
        className={`sender-${kind}`}
        style={{ minWidth: 220 }}
        allowClear
        loading={sender.isPending || save.saving}
        disabled={!editable}
        placeholder={t('apiUsers.senderNone')}
        value={sender.data?.id}
        onChange={save.submit}
        options={options.map((u) => ({ value: u.id, label: u.name }))}
      />
    </Form.Item>
  );
}
