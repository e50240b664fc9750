import { passwordSchema, userNameSchema } from '@herald/shared/schemas/account.schema';
import { memberAcceptSchema } from '@herald/shared/schemas/member.schema';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Form, Input, Result, Spin, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { acceptInvitation, fetchInvitation } from '../../api/members.api.ts';
import { applyFieldErrors, checkWithSchema, zodRule } from '../../components/form-rules.ts';
import { LanguageSwitcher } from '../../components/LanguageSwitcher.tsx';
import { useFormSave } from '../../components/use-form-save.ts';

interface Values {
  userName: string;
  password: string;
  confirmPassword: string;
}

/**
 * The invitee's screen (console-spec §7 "Members"): who invited them to which account, then a
 * user name and password; accepting logs them in (the server sets the session cookies).
 */
export default function MemberInvitePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [form] = Form.useForm<Values>();
  const invitation = useQuery({
    queryKey: ['invitation', token],
    queryFn: () => fetchInvitation(token),
    enabled: token !== '',
    retry: false,
  });

  const { submit, saving } = useFormSave(
    async (values: Values) => {
      const body = { token, ...values };
      if (!checkWithSchema(form, memberAcceptSchema, body)) return;
      await acceptInvitation(body);
      navigate('/backend/dashborad', { replace: true });
    },
    (error) => {
      applyFieldErrors(form, error);
    },
  );

  let content: ReactNode;
  if (token !== '' && invitation.isPending) content = <Spin />;
  else if (token === '' || invitation.isError) {
    content = (
      <Result
        status="warning"
        title={t('members.inviteInvalid')}
        subTitle={t('members.inviteInvalidHint')}
        className="member-invite-invalid"
      />
    );
  } else {
    const data = invitation.data;
    content = (
      <>
        <Typography.Title level={3}>{t('members.inviteTitle')}</Typography.Title>
        <Typography.Paragraph className="member-invite-intro">
          {t('members.inviteIntro', {
            inviter: data?.inviterName,
            account: data?.accountName,
            email: data?.email,
          })}
        </Typography.Paragraph>
        <Form<Values> form={form} layout="vertical" onFinish={submit}>
          <Form.Item name="userName" label={t('members.userName')} rules={[zodRule(userNameSchema)]}>
            <Input name="userName" autoComplete="username" />
          </Form.Item>
          <Form.Item name="password" label={t('members.password')} rules={[zodRule(passwordSchema)]}>
            <Input.Password name="password" autoComplete="new-password" />
          </Form.Item>
          <Form.Item name="confirmPassword" label={t('members.confirmPassword')}>
            <Input.Password name="confirmPassword" autoComplete="new-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={saving} className="member-invite-accept">
            {t('members.accept')}
          </Button>
        </Form>
      </>
    );
  }

  return (
    <Flex justify="center" style={{ padding: '48px 16px' }} className="member-invite-page">
      <Card style={{ width: 440 }} extra={<LanguageSwitcher />}>
        {content}
      </Card>
    </Flex>
  );
}
