import { useMatches } from 'react-router';
import type { ScreenRoute } from './route-types.ts';

/** The route table entry of the screen being shown; the router carries it as the match's handle. */
export function useCurrentRoute(): ScreenRoute | undefined {
  const handle = useMatches().at(-1)?.handle as { kind?: string } | undefined;
  return handle?.kind === 'screen' ? (handle as ScreenRoute) : undefined;
}
