/**
 * A project's copy reports a count for every table it carries; the app names each in plain words from one map.
 * The tables are read from the archive and every part the project hosts, so a table added to any area without
 * words of its own fails here instead of showing its raw name to a person.
 */
import { describe, expect, it } from 'vitest';
import { COPY_TABLE_WORDS } from '../../shared/ipc/archive';
import { PARTS } from '../compose/parts';
import { tablesOf } from './parts';

describe('the words for a copy’s tables', () => {
  const tables = tablesOf(PARTS).map((t) => t.name);

  it('names every table a copy carries', () => {
    expect(tables.length).toBeGreaterThan(20);
    expect(tables.filter((name) => !Object.hasOwn(COPY_TABLE_WORDS, name))).toEqual([]);
  });

  it('says each in plain words (no underscores), no two alike', () => {
    const words = tables.map((name) => COPY_TABLE_WORDS[name] ?? '');
    for (const w of words) expect(w).toMatch(/^[^_]+$/);
    expect(new Set(words).size).toBe(words.length);
    expect(COPY_TABLE_WORDS.watch_presence).not.toBe('watch presence');
  });
});
