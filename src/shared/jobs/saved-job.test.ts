import { describe, expect, it } from 'vitest';
import { readSavedJob, SAVED_JOB_FORMAT, savedJobOf, watchJobOf, type SavedJobSource } from './saved-job';

const thread: SavedJobSource = {
  kind: 'export',
  id: '0b7f2a52-3c4d-4e5f-8a9b-0c1d2e3f4a5b',
  createdBy: 'Skein 0.1.0',
  now: Date.UTC(2026, 10, 28, 12),
  destination: 'thread.jsonl',
  start: {
    view: { kind: 'thread', operation: 'postRepliesV2', params: { id: '1790000000000000001' }, title: 'A thread' },
    format: 'jsonl',
    scope: 'all',
    caps: { maxPages: 2 },
  },
};

describe('saved jobs', () => {
  it('round-trips a dialog’s start request through the file', () => {
    const file = savedJobOf(thread);
    const read = readSavedJob(JSON.stringify(file, null, 2));
    expect(read).toEqual({ ok: true, job: file });
    // an export is written in the first format, which every Skein with saved jobs runs
    expect(file).toMatchObject({ skein_job: 1, kind: 'export', name: 'A thread' });
    expect(file.job.caps).toEqual({ maxPages: 2 });
  });

  it('carries a hydration’s ids, never the id of an import kept on the computer that saved it', () => {
    const file = savedJobOf({
      ...thread,
      kind: 'hydrate',
      start: {
        view: { kind: 'postsByIds', operation: 'postsByIds', params: {}, idsFrom: 'imp-abcdefgh12' },
        format: 'csv',
        scope: 'all',
      },
      ids: { entity: 'posts', list: ['1', '2'] },
    });
    expect(file.job.view.idsFrom).toBeUndefined();
    expect(JSON.stringify(file)).not.toContain('imp-abcdefgh12');
    expect(readSavedJob(JSON.stringify(file))).toMatchObject({ ok: true, job: { ids: { list: ['1', '2'] } } });
  });

  it('refuses a file a newer Skein made, naming both versions', () => {
    const newer = { ...savedJobOf(thread), skein_job: SAVED_JOB_FORMAT + 1 };
    expect(readSavedJob(JSON.stringify(newer))).toEqual({
      ok: false,
      message: expect.stringMatching(
        new RegExp(`newer Skein \\(job format ${SAVED_JOB_FORMAT + 1}\\); this Skein reads up to ${SAVED_JOB_FORMAT}`),
      ),
    });
  });

  it('refuses what is not a job, or a damaged one, in plain words', () => {
    expect(readSavedJob('{')).toEqual({ ok: false, message: expect.stringContaining('not JSON') });
    expect(readSavedJob('{"name":"x"}')).toEqual({ ok: false, message: expect.stringContaining('no “skein_job”') });
    expect(readSavedJob('{"skein_job":0}')).toEqual({
      ok: false,
      message: expect.stringContaining('not one any Skein wrote'),
    });
    const noDestination = { ...savedJobOf(thread), destination: undefined };
    expect(readSavedJob(JSON.stringify(noDestination))).toEqual({
      ok: false,
      message: expect.stringContaining('damaged: destination'),
    });
    // a key has no place in a job file: an unknown field is refused, not carried along
    expect(readSavedJob(JSON.stringify({ ...savedJobOf(thread), apiKey: 'sk-canary' }))).toMatchObject({ ok: false });
    const hydrateWithoutIds = { ...savedJobOf(thread), kind: 'hydrate' };
    expect(readSavedJob(JSON.stringify(hydrateWithoutIds))).toEqual({
      ok: false,
      message: expect.stringContaining('carries its ids'),
    });
  });

  const watch = {
    name: 'Ten accounts',
    kind: 'accounts' as const,
    targets: ['11', '12'],
    handles: { '11': 'first_one' },
    strategy: 'probe' as const,
    schedule: { everyMinutes: 720, until: Date.UTC(2026, 11, 5) },
    caps: { perRun: 3_900, perDay: 4_600, total: 13_400 },
  };

  it('carries a watch with its window as days, in the format that added watches', () => {
    const file = watchJobOf({ spec: watch, days: 7, id: thread.id, createdBy: 'Skein 0.1.0', now: thread.now });
    expect(file).toMatchObject({ skein_job: 2, kind: 'watch', name: 'Ten accounts', days: 7 });
    // a date would be past by the time the file is run elsewhere: the window is its days from the first run
    expect(file.watch.schedule).toEqual({ everyMinutes: 720, from: null, until: null });
    expect(file.watch.handles).toEqual({ '11': 'first_one' });
    expect(readSavedJob(JSON.stringify(file))).toEqual({ ok: true, job: file });
    // what an older Skein (reading format 1) would be told
    expect(SAVED_JOB_FORMAT).toBe(2);
    const dated = { ...file, watch: { ...file.watch, schedule: { ...file.watch.schedule, until: 1 } } };
    expect(readSavedJob(JSON.stringify(dated))).toEqual({
      ok: false,
      message: expect.stringContaining('number of days'),
    });
    expect(readSavedJob(JSON.stringify({ ...file, skein_job: 1 }))).toMatchObject({ ok: false });
    expect(readSavedJob(JSON.stringify({ ...file, apiKey: 'sk-canary' }))).toMatchObject({ ok: false });
    expect(
      readSavedJob(JSON.stringify({ ...file, watch: { ...file.watch, caps: { perRun: 5, perDay: 1, total: 1 } } })),
    ).toMatchObject({ ok: false, message: expect.stringContaining('damaged') });
  });
});
