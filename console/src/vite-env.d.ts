/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Where the sidebar's API documentation link points; default `/docs/api/`. */
  readonly VITE_HERALD_API_DOCS_URL?: string;
}
