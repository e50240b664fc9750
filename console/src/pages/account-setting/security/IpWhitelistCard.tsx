import { IP_WHITELIST_MAX } from '@herald/shared/ip-ranges';
import { ipWhitelistSchema } from '@herald/shared/schemas/security-settings.schema';
import { validationMessage } from '@herald/shared/validation';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Card, Flex, Input, Switch, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type IpWhitelist, saveIpWhitelist, switchIpWhitelist } from '../../../api/security.api.ts';
import { fieldErrorsOf } from '../../../components/form-rules.ts';
import type { SensitiveRunOptions } from '../../../components/use-sensitive-action.tsx';

/**
 * The IP whitelist (product-spec §5): on/off and a text area, one entry per line. The shared
 * schema checks it before saving and names the bad lines (`ips.<line>`), as the server does.
 */
interface Props {
  whitelist: IpWhitelist;
  run: <T>(action: () => Promise<T>, options?: SensitiveRunOptions) => Promise<T | undefined>;
  onChanged: () => void;
}

interface LineError {
  line: number | null;
  message: string;
}

export function IpWhitelistCard({ whitelist, run, onChanged }: Props) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh-cn';
  const [text, setText] = useState(whitelist.ips.join('\n'));
  const [errors, setErrors] = useState<LineError[]>([]);

  useEffect(() => setText(whitelist.ips.join('\n')), [whitelist]);

  const lineOf = (field: string) => {
    const match = /^ips\.(\d+)$/.exec(field);
    return match ? Number(match[1]) : null;
  };

  const save = () => {
    const checked = ipWhitelistSchema.safeParse({ ips: text });
    if (!checked.success) {
      setErrors(
        checked.error.issues.map((issue) => ({
          line: typeof issue.path[1] === 'number' ? issue.path[1] : null,
          message: validationMessage(issue.message, lang),
        })),
      );
      return;
    }
    setErrors([]);
    saving.mutate();
  };
  const saving = useMutation({
    mutationFn: () =>
      run(() => saveIpWhitelist(text), {
        onError: (error) => {
          const fields = fieldErrorsOf(error);
          setErrors(
            fields.map((f) => ({ line: lineOf(f.field), message: validationMessage(f.message, lang) })),
          );
          return fields.length > 0;
        },
      }),
    onSettled: onChanged,
  });

  return (
    <Card title={t('security.ipTitle')} className="ip-whitelist-card">
      <Flex vertical gap="middle">
        <Flex gap="small" align="center">
          <Switch
            checked={whitelist.enabled}
            onChange={async (on) => {
              await run(() => switchIpWhitelist(on), {
                undo: async () => {
                  await run(() => switchIpWhitelist(!on));
                  onChanged();
                },
              });
              onChanged();
            }}
            className="ip-whitelist-switch"
          />
          <span>{whitelist.enabled ? t('security.ipOn') : t('security.ipOff')}</span>
        </Flex>
        <Typography.Text type="secondary">{t('security.ipHint', { max: IP_WHITELIST_MAX })}</Typography.Text>
        <Input.TextArea
          name="ips"
          rows={6}
          value={text}
          status={errors.length > 0 ? 'error' : undefined}
          onChange={(e) => setText(e.target.value)}
          placeholder={t('security.ipPlaceholder')}
        />
        {errors.length > 0 && (
          <Alert
            type="error"
            className="ip-whitelist-errors"
            title={
              <ul style={{ margin: 0, paddingInlineStart: 16 }}>
                {errors.map((e) => (
                  <li key={`${e.line}-${e.message}`}>
                    {e.line === null
                      ? e.message
                      : t('security.ipLineError', { line: e.line, message: e.message })}
                  </li>
                ))}
              </ul>
            }
          />
        )}
        <div>
          <Button type="primary" onClick={save} loading={saving.isPending} className="ip-whitelist-save">
            {t('security.save')}
          </Button>
        </div>
      </Flex>
    </Card>
  );
}
