import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The API server listens on 3000 in development; the console proxies /api and /v1 to it.
export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      '/v1': 'http://localhost:3000',
    },
  },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 1500,
  },
});
