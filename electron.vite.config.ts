/**
 * Build of the three Electron targets (`npm run build`, offline, no Electron binary needed):
 * - main: ESM (package.json is `"type": "module"`), dependencies stay external (node_modules ships with the app);
 *   entries: `index` (Electron), `web` (the browser shell, run by plain Node: `node out/main/web.js`) and
 *   `sandbox-worker` (the demo sandbox's worker thread);
 * - preload: CommonJS with every dependency bundled in, because a sandboxed preload cannot `require` packages;
 * - renderer: the React app, served by the `skein://app/` protocol in Electron and by the e2e host's static server.
 */
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import { metaContentSecurityPolicy } from './src/core/protocol/assets';

/**
 * The CSP also as a <meta> in the built index.html (derived from the header's policy, not a copy), so it
 * holds where the header is not applied. Build only: the dev server's React refresh preamble is an inline script.
 */
function cspMeta(): Plugin {
  const policy = metaContentSecurityPolicy();
  return {
    name: 'skein-csp-meta',
    apply: 'build',
    transformIndexHtml: () => [
      { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: policy }, injectTo: 'head-prepend' },
    ],
  };
}

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rolldownOptions: {
        input: {
          index: resolve(import.meta.dirname, 'src/shells/electron/index.ts'),
          // web: the browser shell (`npm run web`), the same core without Electron (src/shells/web)
          web: resolve(import.meta.dirname, 'src/shells/web/cli.ts'),
          // skein: the headless watch runner (`skein watch --project P`, src/shells/cli), run by plain Node
          skein: resolve(import.meta.dirname, 'src/shells/cli/skein.ts'),
          // the demo sandbox's worker thread (src/sandbox/thread.ts)
          'sandbox-worker': resolve(import.meta.dirname, 'src/sandbox/worker.ts'),
          // the research archive's worker thread (src/core/archive/thread.ts): SQLite off main's loop
          'archive-worker': resolve(import.meta.dirname, 'src/core/compose/archive-worker.ts'),
          // a re-export's own worker (src/core/export/reexport-thread.ts, entry in src/core/compose): encoding off main's loop
          'reexport-worker': resolve(import.meta.dirname, 'src/core/compose/reexport-worker.ts'),
          // an export's CSV or Parquet file, while it collects or from its journal (src/core/export/live-thread.ts)
          'live-worker': resolve(import.meta.dirname, 'src/core/compose/live-worker.ts'),
          // files another person made (a .qdpx, a .qdc) read under a memory limit of their own
          'files-worker': resolve(import.meta.dirname, 'src/core/compose/files-worker.ts'),
        },
        // a prefix-only builtin (absent from `builtinModules`): stated, so no build machine bundles a stub for it
        external: ['node:sqlite'],
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
    plugins: [react(), cspMeta()],
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
