import { Flex, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ApiUserView, updateApiUser } from '../../../api/api-users.api.ts';
import { httpEffects } from '../../../infra/http/http-effects.ts';
import { ERROR_TOAST_SECONDS, UNDO_TOAST_SECONDS } from '../../../infra/http/http-exceptions.ts';

const SWITCHES = [
  ['openTracking', 'apiUsers.openTracking'],
  ['clickTracking', 'apiUsers.clickTracking'],
  ['unsubscribeTracking', 'apiUsers.unsubscribeTracking'],
] as const;

/**
 * The three tracking switches of a row; each flip saves at once (the server keeps the rules) and
 * says so in a toast that can undo it.
 */
export function TrackingSwitches({
  apiUser,
  editable,
  onSaved,
}: {
  apiUser: ApiUserView;
  editable: boolean;
  onSaved: () => unknown;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const flip = async (key: (typeof SWITCHES)[number][0], value: boolean, undoable = true) => {
    setBusy(true);
    try {
      await updateApiUser(apiUser.id, {
        domainId: apiUser.domainId ?? undefined,
        openTracking: apiUser.openTracking,
        clickTracking: apiUser.clickTracking,
        unsubscribeTracking: apiUser.unsubscribeTracking,
        [key]: value,
      });
      await onSaved();
      if (undoable) {
        httpEffects().toast('success', t('http.savedAtOnce'), UNDO_TOAST_SECONDS, {
          label: t('http.undo'),
          run: () => void flip(key, !value, false),
        });
      }
    } catch (error) {
      httpEffects().toast(
        'error',
        error instanceof Error ? error.message : String(error),
        ERROR_TOAST_SECONDS,
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <Flex vertical gap={4}>
      {SWITCHES.map(([key, label]) => (
        <Flex key={key} gap="small" align="center">
          <Switch
            size="small"
            className={`tracking-${key}`}
            checked={apiUser[key]}
            disabled={!editable || busy || apiUser.domainId === null}
            onChange={(value) => flip(key, value)}
          />
          <Typography.Text style={{ whiteSpace: 'nowrap' }}>{t(label)}</Typography.Text>
        </Flex>
      ))}
    </Flex>
  );
}
