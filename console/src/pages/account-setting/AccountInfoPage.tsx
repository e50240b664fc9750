import { maskEmail, maskPhone } from '@herald/shared/masking';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Card, Descriptions, Flex, Result, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { fetchAccountDetails } from '../../api/profile.api.ts';
import { fetchUserInfo } from '../../api/user-info.api.ts';
import { useSensitiveAction } from '../../components/use-sensitive-action.tsx';
import { ChangePasswordCard } from './ChangePasswordCard.tsx';
import { AccountDetailsCard } from './info/AccountDetailsCard.tsx';

/**
 * Account info (console-spec §2 /accountSetting/info): who you are, contacts masked (product-spec
 * §9), the account's details (holder type, company or person, notice address) and the password.
 */
export default function AccountInfoPage() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const info = useQuery({ queryKey: ['userInfo'], queryFn: fetchUserInfo });
  const details = useQuery({ queryKey: ['accountDetails'], queryFn: fetchAccountDetails });
  const { run, holder } = useSensitiveAction();

  if (info.isPending) return <Spin style={{ display: 'block', margin: 48 }} />;
  if (info.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const user = info.data;

  return (
    <Flex vertical gap="middle" className="account-info-page">
      {holder}
      <Card title={t('security.infoTitle')}>
        <Descriptions column={1}>
          <Descriptions.Item label={t('security.userName')}>{user.userName}</Descriptions.Item>
          <Descriptions.Item label={t('security.email')}>{maskEmail(user.email)}</Descriptions.Item>
          <Descriptions.Item label={t('security.phone')}>
            {user.phone ? maskPhone(user.phone) : t('security.notSet')}
          </Descriptions.Item>
          <Descriptions.Item label={t('security.accountType')}>
            {user.accountType === 'main' ? t('security.accountTypeMain') : t('security.accountTypeMember')}
          </Descriptions.Item>
        </Descriptions>
      </Card>
      {details.data && (
        <AccountDetailsCard
          details={details.data}
          run={run}
          onChanged={() => void queries.invalidateQueries({ queryKey: ['accountDetails'] })}
        />
      )}
      <ChangePasswordCard />
    </Flex>
  );
}
