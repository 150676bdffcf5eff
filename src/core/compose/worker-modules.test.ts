/**
 * What the workers load: the archive's worker its serving side and every area's tables, a re-export's worker the
 * archive's client and the formats, the files worker coding's readers and writers of files; never the libraries only main's side of an area uses (timestamps, WARC, XML,
 * the settings file) or, for a worker that only asks the archive, its host's. Each is memory a worker keeps while it
 * runs (the archive's: as long as the app) in a thread that never calls it: ~27 MB together (BENCHMARKS.md).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * The packages (from node_modules) a fresh Node process resolves while importing `entry` under tsx. Outside a worker
 * thread the entry stops once it has loaded everything, when it begins to serve: that failure is expected.
 */
async function packagesLoadedBy(entry: URL): Promise<string[]> {
  const script = `
    import { registerHooks } from 'node:module';
    const seen = new Set();
    registerHooks({
      resolve(specifier, context, next) {
        const r = next(specifier, context);
        const at = r.url.lastIndexOf('/node_modules/');
        if (at >= 0) {
          const parts = r.url.slice(at + '/node_modules/'.length).split('/');
          seen.add(parts[0].startsWith('@') ? parts[0] + '/' + parts[1] : parts[0]);
        }
        return r;
      },
    });
    await import(${JSON.stringify(String(entry))}).catch((e) => {
      if (!/runs in a worker thread/.test(e.message)) throw e;
    });
    process.stdout.write(JSON.stringify([...seen].sort()));
  `;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', script],
    { timeout: 60_000 },
  );
  return JSON.parse(stdout) as string[];
}

/** what only main's side of an area uses */
const MAIN_ONLY = ['pkijs', 'asn1js', 'warcio', 'hash-wasm', 'fast-xml-parser', 'conf', 'ajv', 'csv-parse'];

describe('a worker’s modules', () => {
  it('the archive’s: every area’s tables, without what the areas do with them', { timeout: 90_000 }, async () => {
    const loaded = await packagesLoadedBy(new URL('./archive-worker.ts', import.meta.url));
    expect(loaded).toContain('pg'); // the probe sees packages at all: a team project's driver is one the worker needs
    for (const name of MAIN_ONLY) expect(loaded).not.toContain(name);
  });

  it('a re-export’s: the archive’s client and the formats, not the archive’s host', { timeout: 90_000 }, async () => {
    const loaded = await packagesLoadedBy(new URL('./reexport-worker.ts', import.meta.url));
    expect(loaded).toContain('hyparquet-writer');
    for (const name of [...MAIN_ONLY, 'pg']) expect(loaded).not.toContain(name);
  });

  it('the files worker’s: the readers and writers of files, not coding’s service', { timeout: 90_000 }, async () => {
    const loaded = await packagesLoadedBy(new URL('./files-worker.ts', import.meta.url));
    expect(loaded).toContain('fast-xml-parser');
    for (const name of ['conf', 'ajv', 'pg', 'pkijs', 'warcio']) expect(loaded).not.toContain(name);
  });
});
