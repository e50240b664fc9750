import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Flex, Result, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { fetchIpWhitelist, fetchLoginLogs, fetchSecuritySetting } from '../../api/security.api.ts';
import { useSensitiveAction } from '../../components/use-sensitive-action.tsx';
import { GoogleAuthCard } from './security/GoogleAuthCard.tsx';
import { IpWhitelistCard } from './security/IpWhitelistCard.tsx';
import { LoginLogCard } from './security/LoginLogCard.tsx';
import { LoginVerifyCard } from './security/LoginVerifyCard.tsx';

/** Account security (console-spec §2 /accountSetting/security): every change is verified first. */
export default function SecurityPage() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const { run, verify, holder } = useSensitiveAction();
  const setting = useQuery({ queryKey: ['securitySetting'], queryFn: fetchSecuritySetting });
  const whitelist = useQuery({ queryKey: ['ipWhitelist'], queryFn: fetchIpWhitelist });
  const logs = useQuery({ queryKey: ['loginLogs'], queryFn: fetchLoginLogs });

  const refresh = () => {
    void queries.invalidateQueries({ queryKey: ['securitySetting'] });
    void queries.invalidateQueries({ queryKey: ['ipWhitelist'] });
  };

  if (setting.isPending) return <Spin style={{ display: 'block', margin: 48 }} />;
  if (setting.isError) return <Result status="warning" title={t('common.loadFailed')} />;

  return (
    <Flex vertical gap="middle" className="security-page">
      {holder}
      <LoginVerifyCard setting={setting.data} run={run} onChanged={refresh} />
      <GoogleAuthCard bound={setting.data.googleAuthBound} run={run} verify={verify} onChanged={refresh} />
      {whitelist.data && <IpWhitelistCard whitelist={whitelist.data} run={run} onChanged={refresh} />}
      <LoginLogCard logs={logs.data ?? []} loading={logs.isPending} />
    </Flex>
  );
}
