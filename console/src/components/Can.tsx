import type { RouteAccess } from '@herald/shared/permissions';
import type { ReactNode } from 'react';
import { useCan } from './use-can.ts';

/** Renders its children only for users holding `code`; otherwise nothing at all (not disabled). */
export function Can({
  code,
  children,
  fallback = null,
}: {
  code: RouteAccess;
  children: ReactNode;
  fallback?: ReactNode;
}) {
  return useCan(code) ? children : fallback;
}
