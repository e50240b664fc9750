/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Where the sidebar's API documentation link points; default `/docs/api/`. */
  readonly VITE_HERALD_API_DOCS_URL?: string;
}

/** grapesjs ships its locale files without type declarations. */
declare module 'grapesjs/locale/zh' {
  const messages: Record<string, unknown>;
  export default messages;
}
