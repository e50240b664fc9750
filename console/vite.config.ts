import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * Vendor code changes far less often than screens, so it gets its own long-cached chunks:
 * React and the router together, antd with its rc-* and icon dependencies, and the rest.
 * Screens stay lazily loaded chunks of their own (see routes/routes.ts). Vite 8 bundles with
 * Rolldown, where `codeSplitting.groups` replaces Rollup's deprecated `manualChunks`.
 */
export default defineConfig({
  base: '/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
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
            {
              name: 'vendor-antd',
              test: /node_modules[\\/](antd|@ant-design|@rc-component|rc-[\w-]+|@emotion|dayjs|stylis)[\\/]/,
              priority: 20,
            },
            { name: 'vendor', test: /node_modules[\\/]/, priority: 10 },
          ],
        },
      },
    },
  },
});
