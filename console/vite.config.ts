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
 * The old-browser banner runs before (and without) the bundle, from /browser-tip.js (a file, not
 * an inline script, for the Content-Security-Policy); its two texts are written in at build time
 * from the same locale files as every other string. Emitted with the build, served by the dev
 * server.
 */
function browserTipTexts(): Plugin {
  const read = (lang: string) => {
    const common = JSON.parse(
      readFileSync(new URL(`./src/locales/${lang}/common.json`, import.meta.url), 'utf8'),
    );
    return { message: String(common.oldBrowserTip), dismiss: String(common.dismiss) };
  };
  const render = () => {
    const texts = JSON.stringify({ 'zh-cn': read('zh-cn'), en: read('en') }).replace(/</g, '\\u003c');
    const source = readFileSync(new URL('./browser-tip.js', import.meta.url), 'utf8');
    return source.replace('__HERALD_BROWSER_TIP__', texts);
  };
  return {
    name: 'herald-browser-tip',
    configureServer(server) {
      server.middlewares.use('/browser-tip.js', (_request, response) => {
        response.setHeader('content-type', 'text/javascript; charset=utf-8');
        response.end(render());
      });
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'browser-tip.js', source: render() });
    },
  };
}
