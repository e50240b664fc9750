import { readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * Vendor code changes far less often than screens, so it gets its own long-cached chunks:
 * React and the router together, antd with its rc-* and icon dependencies, and the rest.
 * Screens stay lazily loaded chunks of their own (see app/screens.ts). Vite 8 bundles with
 * Rolldown, where `codeSplitting.groups` replaces Rollup's deprecated `manualChunks`. The
 * manifest lets the bundle benchmark follow what a route loads.
 */
export default defineConfig({
  base: '/',
  plugins: [react(), browserTipTexts()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'vendor-react',
              test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie-es|@remix-run)[\\/]/,
              priority: 30,
            },
          ],
        },
      },
    },
  },
});

/**
 * The old-browser banner in index.html runs before (and without) the bundle, so its two texts
 * are written into the page at build time from the same locale files as every other string.
 */
function browserTipTexts(): Plugin {
  const read = (lang: string) => {
    const common = JSON.parse(
      readFileSync(new URL(`./src/locales/${lang}/common.json`, import.meta.url), 'utf8'),
    );
    return { message: String(common.oldBrowserTip), dismiss: String(common.dismiss) };
  };
  return {
    name: 'herald-browser-tip-texts',
    transformIndexHtml(html) {
      const texts = JSON.stringify({ 'zh-cn': read('zh-cn'), en: read('en') }).replace(/</g, '\\u003c');
      return html.replace('__HERALD_BROWSER_TIP__', texts);
    },
  };
}
