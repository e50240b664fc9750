import NProgress from 'nprogress';
import 'nprogress/nprogress.css';
import { useEffect } from 'react';
import { useNavigation } from 'react-router';

NProgress.configure({ showSpinner: false, minimum: 0.15 });

/**
 * Finishes the progress bar the route guard starts (console-spec §4 step 4) once the navigation
 * settles: the guard knows whether the target is a front-site page, the router knows when the
 * screen's chunk and loader are done.
 */
export function useProgressBar(): void {
  const idle = useNavigation().state === 'idle';
  useEffect(() => {
    if (idle) NProgress.done();
  }, [idle]);
}
