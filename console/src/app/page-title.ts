import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';
import type { AppRoute } from '../routes/routes.ts';

/** Sets the document title to the product prefix plus the translated route title (console-spec §1). */
export function usePageTitle(): void {
  const { t } = useTranslation();
  const matches = useMatches();
  const route = matches.at(-1)?.handle as AppRoute | undefined;
  const titleKey = route && 'titleKey' in route ? route.titleKey : undefined;
  useEffect(() => {
    const product = t('common.productName');
    document.title = titleKey ? `${product} - ${t(titleKey)}` : product;
  }, [t, titleKey]);
}
