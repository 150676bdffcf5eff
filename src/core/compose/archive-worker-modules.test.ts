/**
 * What the archive's worker loads: the archive's serving side and every area's tables, never the libraries only main's
 * side of an area uses (timestamps, WARC, XML, the settings file). Each such library is memory the worker keeps for
 * as long as the app runs (~27 MB together, BENCHMARKS.md), in a thread that never calls it.
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

describe('the archive’s worker', () => {
  it('loads the tables of every area without what the areas do with them', { timeout: 90_000 }, async () => {
    const loaded = await packagesLoadedBy(new URL('./archive-worker.ts', import.meta.url));
    expect(loaded).toContain('pg'); // the probe sees packages at all: a team project's driver is one the worker needs
    for (const mainOnly of ['pkijs', 'asn1js', 'warcio', 'hash-wasm', 'fast-xml-parser', 'conf', 'ajv', 'csv-parse'])
      expect(loaded).not.toContain(mainOnly);
  });
});
