import type { RouteAccess } from '@herald/shared/permissions';
import type { ReactNode } from 'react';
import { type CanLevel, useCan } from './use-can.ts';

/**
 * Renders its children only for users holding `code` (at `level`, when `full` is asked for);
 * otherwise nothing at all (not disabled).
 */
export function Can({
  code,
  level,
  children,
  fallback = null,
}: {
  code: RouteAccess;
  level?: CanLevel;
  children: ReactNode;
  fallback?: ReactNode;
}) {
  return useCan(code, level) ? children : fallback;
}
