import fc from 'fast-check';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { ArchiveQuery } from '../../shared/ipc/archive';
import { literal, snippetOf, viewInWords } from './snippet';

const address = {
  host: 'db.example.org',
  port: 5432,
  database: 'research',
  user: 'ada',
  tls: 'verify-full',
  schema: 'team',
} as const;

describe('a value said as a SQL literal', () => {
  const db = new DatabaseSync(':memory:');
  it('reads back as the very string, whatever it holds', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom("'", "''", "\\'", "');--", '\\', '"', '😀')),
        (s) => {
          const text = s.replace(/\0/g, '');
          expect(db.prepare(`SELECT ${literal(text, 'sqlite')} AS v`).get()).toEqual({ v: text });
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('says numbers whole, never in exponent form, and refuses a NUL', () => {
    expect(literal(1_767_312_000_000, 'postgres')).toBe('1767312000000');
    expect(literal(12, 'sqlite')).toBe('12');
    expect(() => literal('a\0b', 'sqlite')).toThrow(/character/);
    expect(() => literal(Number.NaN, 'sqlite')).toThrow();
  });
});

describe("a view's script", () => {
  it('names the view in words: the collection, the search, the filters, the order', () => {
    expect(
      viewInWords(
        ArchiveQuery.parse({ collection: 3, text: 'heron', author: '@ada', from: Date.UTC(2026, 0, 2), media: true }),
        'Herons',
      ),
    ).toBe(
      'posts, in the collection “Herons”, matching the search “heron”, by @ada, made on or after 2026-01-02T00:00:00.000Z, only with media, newest first',
    );
  });

  it('keeps a line break typed in the search out of the code, in every language', () => {
    for (const language of ['python', 'r', 'sql'] as const) {
      const { text } = snippetOf({
        query: ArchiveQuery.parse({ text: 'heron\nimport os' }),
        language,
        project: { name: 'A\nB', place: { store: 'sqlite', path: '/tmp/p.skein' } },
        at: 0,
        version: '1',
      });
      expect(text.split('\n').filter((l) => l.includes('import os'))).toEqual([
        expect.stringMatching(/^(#|--) The view: .*heron import os/),
      ]);
    }
  });

  it('reaches a team project by its address, its schema and PGPASSWORD', () => {
    const { text, note } = snippetOf({
      query: ArchiveQuery.parse({ text: 'heron' }),
      language: 'python',
      project: { name: 'Team', place: { store: 'postgres', address } },
      at: 0,
      version: '1',
    });
    expect(text).toContain('host="db.example.org", port=5432, dbname="research"');
    expect(text).toContain('options="-c search_path=team"');
    expect(text).toContain('PGPASSWORD');
    expect(text).not.toMatch(/password=/);
    expect(note).toMatch(/^Set the environment variable PGPASSWORD/);
  });

  it("runs a project file's search with words on any reader's SQLite: no version check, no warning", () => {
    const scriptFor = (text: string, language: 'r' | 'python') =>
      snippetOf({
        query: ArchiveQuery.parse({ text }),
        language,
        project: { name: 'P', place: { store: 'sqlite', path: '/tmp/p.skein' } },
        at: 0,
        version: '1',
      });
    for (const language of ['r', 'python'] as const)
      for (const text of ['heron', 'from:ada OR -heron', 'from:ada since:2026-01-01']) {
        const s = scriptFor(text, language);
        expect(s.note).toBeNull();
        expect(s.text).not.toMatch(/sqlite_version|rsqliteVersion|stop\(|sys\.exit/);
      }
  });
});
