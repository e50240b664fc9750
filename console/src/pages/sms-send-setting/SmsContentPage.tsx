import { PERMISSIONS } from '@herald/shared/permissions';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Card, Popconfirm, Result, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { fetchSmsContentView, saveSmsContentView } from '../../api/sms-content-view.api.ts';
import { Can } from '../../components/Can.tsx';
import { httpEffects } from '../../infra/http/http-effects.ts';
import { SUCCESS_TOAST_SECONDS } from '../../infra/http/http-exceptions.ts';

/**
 * SMS content view (console-spec §2 /s_sendSetting/smsContent), paid accounts only: while on, the
 * SMS status screen and its exports carry the text of SMS of the last 45 days. Turning it off
 * asks first (product-spec §4: content viewing is closed directly, with a confirm prompt).
 */
export default function SmsContentPage() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const setting = useQuery({ queryKey: ['smsContentView'], queryFn: fetchSmsContentView });
  const save = useMutation({
    mutationFn: saveSmsContentView,
    onSuccess: (saved) => {
      queries.setQueryData(['smsContentView'], saved);
      void queries.invalidateQueries({ queryKey: ['smsStatus'] });
      httpEffects().toast(
        'success',
        t(saved.enabled ? 'smsContent.turnedOn' : 'smsContent.turnedOff'),
        SUCCESS_TOAST_SECONDS,
      );
    },
  });

  if (setting.isError) return <Result status="warning" title={t('common.loadFailed')} />;
  const data = setting.data;
  const enabled = data?.enabled ?? false;
  const toggle = (
    <Switch
      className="sms-content-switch"
      checked={enabled}
      disabled={!data?.paid && !enabled}
      loading={save.isPending}
      onChange={(on) => on && save.mutate(true)}
    />
  );
  return (
    <Card className="sms-content-page" loading={setting.isPending}>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('smsContent.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        {t('smsContent.intro', { days: data?.days ?? 45 })}
      </Typography.Paragraph>
      {data && !data.paid && (
        <Alert
          type="info"
          showIcon
          className="sms-content-paid-only"
          style={{ marginBottom: 16 }}
          title={t('smsContent.paidOnly')}
          action={<Link to="/accountSetting/financialMangement/charge">{t('smsContent.upgrade')}</Link>}
        />
      )}
      <Space>
        <Can code={PERMISSIONS.SMS_SETTINGS} level="full">
          {enabled ? (
            <Popconfirm
              title={t('smsContent.offConfirm')}
              okButtonProps={{ className: 'sms-content-off-ok' }}
              onConfirm={() => save.mutateAsync(false)}
            >
              {toggle}
            </Popconfirm>
          ) : (
            toggle
          )}
        </Can>
        <Typography.Text>{t('smsContent.switch')}</Typography.Text>
      </Space>
      <Typography.Paragraph style={{ marginTop: 16 }}>
        <Link to="/s_sendResponse/smsStatus">{t('smsContent.toStatus')}</Link>
      </Typography.Paragraph>
    </Card>
  );
}
