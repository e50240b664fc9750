import type { Apiv2Area } from './apiv2.plugin.ts';

/** Every area of the SendCloud-compatible API; each lives in its own `<area>.apiv2.ts`. */
export const APIV2_AREAS: Apiv2Area[] = [];
