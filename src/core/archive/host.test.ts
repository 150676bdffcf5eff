import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ArchiveHost } from './host';
import { repliesPage } from './testing/answers';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'skein-host-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the archive's ingest batches", () => {
  it('writes a batch once it holds 8 MB of answers, before the timer and before 256 answers', () => {
    const path = join(dir, 'a.skein');
    const host = new ArchiveHost(() => undefined);
    host.api.open('current', { path, name: 'x', kind: 'live' });
    // pages of 20 posts are ~40 KB: 8 MB is ~200 of them
    const pages = Array.from({ length: 220 }, (_, i) => repliesPage(i * 20, 20, 1000));
    expect(pages.reduce((n, p) => n + p.text.length, 0)).toBeGreaterThan(8_000_000);
    for (const record of pages) host.api.ingest('current', record);
    const db = new DatabaseSync(path, { readOnly: true });
    const { n } = db.prepare('SELECT count(*) AS n FROM requests').get() as { n: number };
    db.close();
    expect(n).toBeGreaterThan(150);
    expect(n).toBeLessThan(220);
    host.dispose();
  });
});
