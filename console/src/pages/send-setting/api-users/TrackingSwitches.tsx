import { Flex, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { type ApiUserView, updateApiUser } from '../../../api/api-users.api.ts';
import { useFormSave } from '../../../components/use-form-save.ts';
import { httpEffects } from '../../../infra/http/http-effects.ts';
import { ERROR_TOAST_SECONDS, UNDO_TOAST_SECONDS } from '../../../infra/http/http-exceptions.ts';

const SWITCHES = [
  ['openTracking', 'apiUsers.openTracking'],
  ['clickTracking', 'apiUsers.clickTracking'],
  ['unsubscribeTracking', 'apiUsers.unsubscribeTracking'],
] as const;

interface Flip {
  key: (typeof SWITCHES)[number][0];
  value: boolean;
  undoable: boolean;
}

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
  const save = useFormSave(
    async ({ key, value, undoable }: Flip): Promise<void> => {
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
          run: () => save.submit({ key, value: !value, undoable: false }),
        });
      }
    },
    (error) => {
      httpEffects().toast(
        'error',
        error instanceof Error ? error.message : String(error),
        ERROR_TOAST_SECONDS,
      );
    },
  );

  return (
    <Flex vertical gap={4}>
      {SWITCHES.map(([key, label]) => (
        <Flex key={key} gap="small" align="center">
          <Switch
            size="small"
            className={`tracking-${key}`}
            checked={apiUser[key]}
            disabled={!editable || save.saving || apiUser.domainId === null}
            onChange={(value) => save.submit({ key, value, undoable: true })}
          />
          <Typography.Text style={{ whiteSpace: 'nowrap' }}>{t(label)}</Typography.Text>
        </Flex>
      ))}
    </Flex>
  );
}
