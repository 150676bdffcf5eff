/**
 * Coding in the project file: a project written before coding existed is migrated in place; values are one per
 * item × field × coder and keep their version; a source's strata are counted and read in chunks as the archive
 * holds them; samples keep their items and assignment; opted-out accounts are found by id or handle.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { CodebookDefinition } from '../../shared/coding/codebook';
import { ArchiveQuery } from '../../shared/ipc/archive';
import { ArchiveHost } from './host';
import { ArchiveProject } from './project';
import { postFixture } from '../../shared/api/fixtures';
import type { IngestRecord } from './ingest';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function project(): ArchiveProject {
  const dir = mkdtempSync(join(tmpdir(), 'skein-coding-'));
  dirs.push(dir);
  let now = Date.UTC(2026, 10, 1);
  return new ArchiveProject(join(dir, 'p.skein'), { name: 'P', kind: 'live', now }, () => (now += 1000));
}

const definition = CodebookDefinition.parse({
  fields: [
    {
      key: 'stance',
      label: 'Stance',
      type: 'category',
      categories: [
        { value: 'a', label: 'A' },
        { value: 'b', label: 'B' },
      ],
    },
  ],
});

describe('coding in the project file', () => {
  it('migrates a project of the previous format in place', () => {
    const p = project();
    const path = p.path;
    p.close();
    const db = new DatabaseSync(path);
    db.exec('DROP TABLE codebooks; DROP TABLE codebook_versions; DROP TABLE coders; DROP TABLE codings;');
    db.exec(
      'DROP TABLE adjudications; DROP TABLE samples; DROP TABLE sample_items; DROP TABLE assignments; DROP TABLE opt_outs;',
    );
    // the format before coding (migration 3) had none of the later tables either: the watches' (4) go too
    db.exec(
      'DROP TABLE watches; DROP TABLE watch_runs; DROP TABLE watch_gaps; DROP TABLE watch_presence; DROP TABLE watch_counters; DROP TABLE watch_runner;',
    );
    db.exec('PRAGMA user_version = 2');
    db.close();
    const again = new ArchiveProject(path, { name: 'P', kind: 'live', now: 0 });
    expect(again.coding.codebooks()).toEqual([]);
    again.close();
  });

  it('keeps one value per item × field × coder, with its time and version', () => {
    const p = project();
    const id = p.coding.createCodebook('Stance', definition, '');
    const ana = p.coding.addCoder('Ana', 'person', null);
    p.coding.setCoding({
      codebook: id,
      kind: 'post',
      id: '1',
      field: 'stance',
      coder: ana.id,
      value: 'a',
      version: 1,
      codedAt: 5,
    });
    p.coding.setCoding({
      codebook: id,
      kind: 'post',
      id: '1',
      field: 'stance',
      coder: ana.id,
      value: 'b',
      version: 2,
      codedAt: 6,
    });
    expect(p.coding.codings(id, null)).toEqual([
      { kind: 'post', id: '1', field: 'stance', coder: ana.id, value: 'b', codedAt: 6, version: 2, detail: null },
    ]);
    expect(p.coding.usedVersion(id, 2)).toBe(true);
    expect(p.coding.usedVersion(id, 1)).toBe(false);
    expect(() => p.coding.addCoder('ana', 'person', null)).toThrow();
    p.close();
  });

  it('counts and reads a source by stratum (day, author, type), in chunks through the host', () => {
    const host = new ArchiveHost(() => undefined);
    const dir = mkdtempSync(join(tmpdir(), 'skein-coding-host-'));
    dirs.push(dir);
    host.api.open('current', { path: join(dir, 'h.skein'), name: 'H', kind: 'live' });
    const posts = Array.from({ length: 30 }, (_, i) => ({
      ...postFixture,
      id: String(1000 + i),
      quoted_tweet: null,
      author: { ...postFixture.author, id: String(i % 3), userName: `user${i % 3}`, name: `User ${i % 3}` },
      createdAt: i % 2 === 0 ? 'Sun Nov 01 12:00:00 +0000 2026' : 'Mon Nov 02 12:00:00 +0000 2026',
    }));
    const record: IngestRecord = {
      operation: 'postsByIds',
      params: '{"tweet_ids":"x"}',
      cursor: null,
      at: Date.UTC(2026, 10, 3),
      baseUrl: 'https://api.example',
      httpStatus: 200,
      text: JSON.stringify({ tweets: posts, status: 'success', message: '' }),
    };
    host.api.ingest('current', record);
    const q = ArchiveQuery.parse({});
    const byAuthor = host.api.population('current', q, 'author', 10);
    expect(byAuthor.total).toBe(30);
    expect(byAuthor.strata.map((s) => s.count)).toEqual([10, 10, 10]);
    expect(host.api.population('current', q, 'type', 10).strata).toEqual([{ value: 'original', count: 30 }]);
    const reader = host.api.sourceOpen('current', q, 'day');
    const first = host.api.sourceNext(reader, 25);
    const rest = host.api.sourceNext(reader, 25);
    expect(first).toHaveLength(25);
    expect(rest).toHaveLength(5);
    expect(new Set([...first, ...rest].map((r) => r.stratum))).toEqual(new Set(['2026-11-01', '2026-11-02']));
    host.api.sourceClose(reader);
    expect(
      host.api
        .codedItems('current', [
          { kind: 'post', id: '1003' },
          { kind: 'post', id: '9' },
        ])
        .map((i) => i.item === null),
    ).toEqual([false, true]);
    // opt-outs by handle find the account's id from its posts
    host.api.addOptOut('current', null, 'user1', 'asked by email');
    expect(host.api.accountOf('current', { handle: 'user1' })).toEqual({ userId: '1', handle: 'user1' });
    expect(host.api.optOuts('current').map((o) => o.handle)).toEqual(['user1']);
    host.dispose();
  });
});
