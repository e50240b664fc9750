import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentRoute } from '../routes/current-route.ts';
import type { ScreenRoute } from '../routes/route-types.ts';

/** Sets the document title to the product prefix plus the translated route title (console-spec §1). */
export function usePageTitle(): void {
  const { t } = useTranslation();
  const route: ScreenRoute | undefined = useCurrentRoute();
  const titleKey = route?.titleKey;
  useEffect(() => {
    const product = t('common.productName');
    document.title = titleKey ? `${product} - ${t(titleKey)}` : product;
  }, [t, titleKey]);
}
