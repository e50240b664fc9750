import NProgress from 'nprogress';
import 'nprogress/nprogress.css';
import { useEffect } from 'react';
import { useNavigation } from 'react-router';

NProgress.configure({ showSpinner: false, minimum: 0.15 });

/** A thin progress bar while a navigation loads its screen chunk (console-spec §4 step 4). */
export function useProgressBar(): void {
  const busy = useNavigation().state !== 'idle';
  useEffect(() => {
    if (busy) NProgress.start();
    else NProgress.done();
  }, [busy]);
}
