/**
 * Test wiring for `createCore` in plain Node: no key store, no browser, the demo sandbox started in-process
 * (each one pushed to `sandboxes` for the test to close) and the archive's worker run from its source.
 */
import type { CoreDeps } from '..';
import { startSandbox, type Sandbox } from '../../sandbox';

export function testCoreDeps(userDataDir: string, sandboxes: Sandbox[], over: Partial<CoreDeps> = {}): CoreDeps {
  return {
    userDataDir,
    secretStorage: {
      isEncryptionAvailable: async () => false,
      backend: () => 'basic_text',
      encryptString: async () => new Uint8Array(),
      decryptString: async () => '',
    },
    openExternal: async () => {},
    app: { name: 'Skein', version: '1.2.3', platform: 'linux' },
    startSandbox: async () => {
      const s = await startSandbox({ port: 0, size: 'small' });
      sandboxes.push(s);
      return s;
    },
    chooseSavePath: async () => null,
    emit: () => {},
    workers: {
      archive: new URL('../compose/archive-worker.ts', import.meta.url),
      files: new URL('../compose/files-worker.ts', import.meta.url),
      // an export's Parquet file (or a file from its journal) written in a worker of its own, as in the app
      live: new URL('../compose/live-worker.ts', import.meta.url),
      execArgv: ['--import', 'tsx'],
    },
    ...over,
  };
}
