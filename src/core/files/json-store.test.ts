import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openJsonStore } from './json-store';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'skein-json-store-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('a JSON store', () => {
  it('that names the keys it owns writes only those: the others a newer Skein wrote stay as they were', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'usage.json'), JSON.stringify({ lifetime: { calls: 3 }, monthly: { '2026-11': 40 } }));
    const store = openJsonStore<{ lifetime: { calls: number }; history: string[] }>(dir, 'usage', {
      owns: ['lifetime', 'history'],
    });
    store.write({ lifetime: { calls: 4 } });
    expect(JSON.parse(readFileSync(join(dir, 'usage.json'), 'utf8'))).toEqual({
      lifetime: { calls: 4 },
      monthly: { '2026-11': 40 },
    });
    // an owned key left out of a write is gone: the store forgets what it owns when told to
    store.write({ history: ['reset'] });
    expect(store.read()).toEqual({ history: ['reset'], monthly: { '2026-11': 40 } });
  });

  it('that names none writes the whole file, as before', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'plain.json'), JSON.stringify({ a: 1, b: 2 }));
    const store = openJsonStore<{ a: number }>(dir, 'plain');
    store.write({ a: 3 });
    expect(JSON.parse(readFileSync(join(dir, 'plain.json'), 'utf8'))).toEqual({ a: 3 });
  });

  it('kept in memory (no folder), keeps the keys it does not own there too', () => {
    const store = openJsonStore<{ a: number; b: number }>(undefined, 'memory', { owns: ['a'] });
    store.write({ a: 1, b: 2 });
    store.write({ a: 5 });
    expect(store.read()).toEqual({ a: 5, b: 2 });
  });
});
