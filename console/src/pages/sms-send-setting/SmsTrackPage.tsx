import { PERMISSIONS } from '@herald/shared/permissions';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Card, Result, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { fetchSmsLinkSetting, saveSmsLinkSetting } from '../../api/sms-links.api.ts';
import { Can } from '../../components/Can.tsx';
import { httpEffects } from '../../infra/http/http-effects.ts';
import { SUCCESS_TOAST_SECONDS } from '../../infra/http/http-exceptions.ts';

/**
 * SMS link tracking (console-spec §2 /s_sendSetting/track), paid accounts only: turned on, the
 * links of templates marked for tracking go out as short links of their own per number, and the
 * clicks appear under link clicks and click data.
 */
export default function SmsTrackPage() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const setting = useQuery({ queryKey: ['smsLinkSetting'], queryFn: fetchSmsLinkSetting });
  const save = useMutation({
    mutationFn: saveSmsLinkSetting,
    onSuccess: (saved) => {
      queries.setQueryData(['smsLinkSetting'], saved);
      httpEffects().toast(
        'success',
        t(saved.enabled ? 'smsLinks.turnedOn' : 'smsLinks.turnedOff'),
        SUCCESS_TOAST_SECONDS,
      );
    },
  });

  if (setting.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const data = setting.data;
  return (
    <Card className="sms-track-page" loading={setting.isPending}>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('smsLinks.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        {t('smsLinks.intro', { base: data?.base ?? '' })}
      </Typography.Paragraph>
      {data && !data.paid && (
        <Alert
          type="info"
          showIcon
          className="sms-track-paid-only"
          style={{ marginBottom: 16 }}
          title={t('smsLinks.paidOnly')}
          action={<Link to="/accountSetting/financialMangement/charge">{t('smsLinks.upgrade')}</Link>}
        />
      )}
      <Space>
        <Can code={PERMISSIONS.SMS_SETTINGS} level="full">
          <Switch
            className="sms-track-switch"
            checked={data?.enabled ?? false}
            disabled={!data?.paid && !data?.enabled}
            loading={save.isPending}
            onChange={(enabled) => save.mutate(enabled)}
          />
        </Can>
        <Typography.Text>{t('smsLinks.switch')}</Typography.Text>
      </Space>
      <Typography.Paragraph type="secondary" style={{ marginTop: 16 }}>
        {t('smsLinks.templateHint')} <Link to="/s_sendRelative/template">{t('smsLinks.toTemplates')}</Link>
      </Typography.Paragraph>
    </Card>
  );
}
