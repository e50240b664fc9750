import { DEFAULT_API_DOCS_URL } from '../routes/menu.ts';

/**
 * Build-time settings of the shell. The API documentation link of the sidebar points to
 * `/docs/api/` on the same host unless the build sets VITE_HERALD_API_DOCS_URL (an operator
 * publishing the docs elsewhere).
 */
export const API_DOCS_URL: string = import.meta.env.VITE_HERALD_API_DOCS_URL || DEFAULT_API_DOCS_URL;
