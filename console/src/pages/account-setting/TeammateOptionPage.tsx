import { MEMBER_TYPES, type MemberType } from '@herald/shared/member-presets';
import { PERMISSIONS } from '@herald/shared/permissions';
import { emailSchema } from '@herald/shared/schemas/account.schema';
import { memberInviteSchema, memberUpdateSchema } from '@herald/shared/schemas/member.schema';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Flex, Form, Input, Radio, Result, Spin, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import {
  fetchMember,
  fetchPermissionCatalogue,
  inviteMember,
  type MemberInput,
  updateMember,
} from '../../api/members.api.ts';
import { applyFieldErrors, checkWithSchema, zodRule } from '../../components/form-rules.ts';
import { useCan } from '../../components/use-can.ts';
import { useFormSave } from '../../components/use-form-save.ts';
import { type GridValue, PermissionGrid, toGrid } from './teammates/PermissionGrid.tsx';

interface Values {
  email: string;
  name?: string;
  type: MemberType;
  levels: GridValue;
}

const HINTS = {
  administrator: 'members.typeAdministratorHint',
  visitor: 'members.typeVisitorHint',
  custom: 'members.typeCustomHint',
} as const;
const TYPE_KEYS = {
  administrator: 'members.typeAdministrator',
  visitor: 'members.typeVisitor',
  custom: 'members.typeCustom',
} as const;

/** Add or edit a teammate (`?userId=` edits): email, name, type and, for custom, per-function levels. */
export default function TeammateOptionPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const userId = Number(params.get('userId')) || null;
  const [form] = Form.useForm<Values>();
  const type = Form.useWatch('type', form);
  const queries = useQueryClient();
  const canChange = useCan(PERMISSIONS.TEAMMATES, 'full');
  const catalogue = useQuery({ queryKey: ['permissionCatalogue'], queryFn: fetchPermissionCatalogue });
  const member = useQuery({
    queryKey: ['member', userId],
    queryFn: () => fetchMember(userId ?? 0),
    enabled: userId !== null,
  });

  useEffect(() => {
    if (!member.data) return;
    const m = member.data;
    form.setFieldsValue({ email: m.email, name: m.name ?? '', type: m.type, levels: toGrid(m.levels) });
  }, [member.data, form]);

  const { submit, saving } = useFormSave(
    async (values: Values) => {
      const input: MemberInput = { name: values.name, type: values.type };
      if (values.type === 'custom') input.levels = { ...(values.levels ?? {}) } as MemberInput['levels'];
      const schema = userId ? memberUpdateSchema : memberInviteSchema;
      const body = userId ? { userId, ...input } : { ...input, email: values.email };
      if (!checkWithSchema(form, schema, body)) return;
      if (userId) await updateMember(userId, input);
      else await inviteMember({ ...input, email: values.email });
      await queries.invalidateQueries({ queryKey: ['members'] });
      if (userId) await queries.invalidateQueries({ queryKey: ['member', userId] });
      navigate('/accountSetting/teammates');
    },
    (error) => {
      applyFieldErrors(form, error);
    },
  );

  if (catalogue.isError || member.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  if (catalogue.isPending || (userId !== null && member.isPending)) {
    return <Spin style={{ display: 'block', margin: 48 }} />;
  }

  return (
    <Card className="teammate-option-page">
      <Typography.Title level={4}>{userId ? t('members.editTitle') : t('members.addTitle')}</Typography.Title>
      {!canChange && (
        <Alert type="info" showIcon title={t('members.readOnly')} style={{ marginBottom: 16 }} />
      )}
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{ type: 'custom', levels: {} }}
        style={{ maxWidth: 760 }}
      >
        <Form.Item name="email" label={t('members.email')} rules={userId ? [] : [zodRule(emailSchema)]}>
          <Input name="email" disabled={userId !== null} autoComplete="off" />
        </Form.Item>
        <Form.Item name="name" label={t('members.name')}>
          <Input name="name" maxLength={32} />
        </Form.Item>
        <Form.Item name="type" label={t('members.type')} extra={type ? t(HINTS[type]) : undefined}>
          <Radio.Group>
            {MEMBER_TYPES.map((m) => (
              <Radio key={m} value={m} className={`member-type-${m}`}>
                {t(TYPE_KEYS[m])}
              </Radio>
            ))}
          </Radio.Group>
        </Form.Item>
        {type === 'custom' && (
          <Form.Item name="levels" label={t('members.levelColumn')}>
            <PermissionGrid catalogue={catalogue.data} />
          </Form.Item>
        )}
        <Flex gap="small">
          <Button type="primary" htmlType="submit" loading={saving} className="teammate-submit">
            {userId ? t('members.submitSave') : t('members.submitInvite')}
          </Button>
          <Button onClick={() => navigate('/accountSetting/teammates')}>{t('members.cancel')}</Button>
        </Flex>
      </Form>
    </Card>
  );
}
