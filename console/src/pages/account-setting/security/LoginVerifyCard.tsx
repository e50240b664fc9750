import {
  LOGIN_VERIFY_MODES,
  type LoginVerifyMode,
  type VerifyWay,
} from '@herald/shared/schemas/security-settings.schema';
import { useMutation } from '@tanstack/react-query';
import { Button, Card, Flex, Radio, Select, Switch, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type SecuritySetting,
  saveDownloadVerify,
  saveLoginVerify,
  saveSensitiveVerify,
} from '../../../api/security.api.ts';
import type { SensitiveRunOptions } from '../../../components/use-sensitive-action.tsx';

/** Login verification (mode and way) and the download and sensitive-operation switches. */
interface Props {
  setting: SecuritySetting;
  run: <T>(action: () => Promise<T>, options?: SensitiveRunOptions) => Promise<T | undefined>;
  onChanged: () => void;
}

export function LoginVerifyCard({ setting, run, onChanged }: Props) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<LoginVerifyMode>(setting.loginVerify);
  const [way, setWay] = useState<VerifyWay | undefined>(setting.loginVerifyWay ?? setting.ways[0]);

  useEffect(() => {
    setMode(setting.loginVerify);
    setWay(setting.loginVerifyWay ?? setting.ways[0]);
  }, [setting]);

  const saving = useMutation({
    mutationFn: () => run(() => saveLoginVerify(mode, mode === 'off' ? undefined : way)),
    onSettled: onChanged,
  });
  const save = () => saving.mutate();

  const toggle = async (kind: 'download' | 'sensitive', enabled: boolean, undoable = true) => {
    await run(() => (kind === 'download' ? saveDownloadVerify(enabled) : saveSensitiveVerify(enabled)), {
      undo: undoable ? () => void toggle(kind, !enabled, false) : undefined,
    });
    onChanged();
  };

  return (
    <Card title={t('security.loginVerifyTitle')} className="login-verify-card">
      <Flex vertical gap="middle">
        <Typography.Text type="secondary">{t('security.loginVerifyHint')}</Typography.Text>
        <Radio.Group value={mode} onChange={(e) => setMode(e.target.value as LoginVerifyMode)}>
          {LOGIN_VERIFY_MODES.map((m) => (
            <Radio key={m} value={m}>
              {t(`security.mode.${m}`)}
            </Radio>
          ))}
        </Radio.Group>
        {mode !== 'off' && (
          <Flex gap="small" align="center">
            <span>{t('security.loginVerifyWay')}</span>
            <Select<VerifyWay>
              className="login-verify-way"
              style={{ minWidth: 200 }}
              value={way}
              onChange={setWay}
              options={setting.ways.map((w) => ({ value: w, label: t(`security.way.${w}`) }))}
            />
          </Flex>
        )}
        <div>
          <Button type="primary" loading={saving.isPending} onClick={save} className="login-verify-save">
            {t('security.save')}
          </Button>
        </div>
        <Flex gap="small" align="center">
          <Switch
            checked={setting.downloadVerify}
            onChange={(on) => toggle('download', on)}
            className="download-verify-switch"
          />
          <span>{t('security.downloadVerify')}</span>
        </Flex>
        <Flex gap="small" align="center">
          <Switch
            checked={setting.sensitiveVerify}
            onChange={(on) => toggle('sensitive', on)}
            className="sensitive-verify-switch"
          />
          <span>{t('security.sensitiveVerify')}</span>
        </Flex>
      </Flex>
    </Card>
  );
}
