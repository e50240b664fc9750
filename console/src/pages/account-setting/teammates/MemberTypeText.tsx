import type { MemberType } from '@herald/shared/member-presets';
import { useTranslation } from 'react-i18next';

const KEYS = {
  administrator: 'members.typeAdministrator',
  visitor: 'members.typeVisitor',
  custom: 'members.typeCustom',
} as const;

/** A teammate's type in the current language. */
export function MemberTypeText({ type }: { type: MemberType }) {
  const { t } = useTranslation();
  return <>{t(KEYS[type])}</>;
}
