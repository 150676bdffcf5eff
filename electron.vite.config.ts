/**
 * Build of the three Electron targets (`npm run build`, offline, no Electron binary needed):
 * - main: ESM (package.json is `"type": "module"`), dependencies stay external (node_modules ships with the app);
 *   two entries: `index` (Electron) and `web` (the browser shell, run by plain Node: `node out/main/web.js`);
 * - preload: CommonJS with every dependency bundled in, because a sandboxed preload cannot `require` packages;
 * - renderer: the React app, served by the `skein://app/` protocol in Electron and by the e2e host's static server.
 */
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rolldownOptions: {
        // web: the browser shell (`npm run web`), the same core without Electron (src/main/web-shell)
        input: { index: resolve(import.meta.dirname, 'src/main/index.ts'), web: resolve(import.meta.dirname, 'src/main/web-shell/cli.ts') },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve(import.meta.dirname, 'src/preload/index.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs', codeSplitting: false },
      },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'src/renderer'),
    // Relative asset URLs: the same build is served from skein://app/ and from the e2e host.
    base: './',
    plugins: [react()],
    build: {
      outDir: resolve(import.meta.dirname, 'out/renderer'),
      emptyOutDir: true,
      // SKEIN_PROFILE=1 npm run build: readable function names in CPU profiles and traces
      minify: process.env.SKEIN_PROFILE ? false : undefined,
      rolldownOptions: {
        input: { index: resolve(import.meta.dirname, 'src/renderer/index.html') },
      },
    },
  },
});
