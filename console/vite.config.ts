import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
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
  plugins: [react(), browserTipTexts(), precompress()],
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

/**
 * Every text asset of the build written beside itself compressed, once, at build time: `.br`
 * (brotli at its best level) and `.gz` (gzip 9). The server hands a browser the smallest its
 * Accept-Encoding allows (@fastify/static `preCompressed`) without compressing per request.
 */
function precompress(): Plugin {
  const TEXT = /\.(js|mjs|css|html|svg|json|txt|map)$/;
  let outDir = '';
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? walk(full) : [full];
    });
  return {
    name: 'herald-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const file of walk(outDir)) {
        if (!TEXT.test(file) || file.includes(`${path.sep}.vite${path.sep}`)) continue;
        if (statSync(file).size < 1024) continue;
        const content = readFileSync(file);
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(content, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
            },
          }),
        );
        writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}
