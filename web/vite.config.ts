import { fileURLToPath } from 'node:url';
import { defineConfig, searchForWorkspaceRoot } from 'vite';
import react from '@vitejs/plugin-react';

// The channel-type table and the money ↔ ratio rule are shared with the server rather than copied (see tsconfig.json `paths`).
// `@shared/*.wire` needs no alias: the wire files hold types only, imported with `import type` and erased before
// bundling. A value import would build (rolldown reads tsconfig `paths`) but not load in dev: alias and allow it first.
const sharedChannelTypes = fileURLToPath(new URL('../src/modules/channels/channel-types.ts', import.meta.url));
const sharedPriceConversion = fileURLToPath(new URL('../src/modules/pricing/price-conversion.ts', import.meta.url));

// The API server listens on 3000 in development; the console proxies /api, /v1 and the playground's /pg to it.
export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: { '@shared/channel-types': sharedChannelTypes, '@shared/price-conversion': sharedPriceConversion },
  },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      '/v1': 'http://localhost:3000',
      '/pg': 'http://localhost:3000',
    },
    // The dev server only serves files under the console; let it reach the shared server files.
    fs: { allow: [searchForWorkspaceRoot(process.cwd()), sharedChannelTypes, sharedPriceConversion] },
  },
  build: {
    outDir: 'dist',
    // scripts/check-bundle-budget.mjs reads the manifest to add up what each page loads.
    manifest: true,
  },
});
