import { useEffect } from 'react';
import { useSessionStore } from '../stores/session.store.ts';

/** Phone-width layouts below this width (antd's `md` breakpoint): drawer menu, compact header. */
export const MOBILE_QUERY = '(max-width: 767.98px)';

/** Keeps the store's device type in step with the viewport (console-spec §3). */
export function useDeviceType(): void {
  const patch = useSessionStore((state) => state.patch);
  useEffect(() => {
    const query = window.matchMedia(MOBILE_QUERY);
    const update = () => patch({ device: query.matches ? 'mobile' : 'desktop' });
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, [patch]);
}
