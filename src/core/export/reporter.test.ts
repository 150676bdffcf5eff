import { describe, expect, it } from 'vitest';
import type { ExportJob } from '../../shared/ipc/export';
import { estimateExport } from './estimate';
import { createExportReporter, LONG_EXPORT_MS } from './reporter';

function job(over: Partial<ExportJob>): ExportJob {
  return {
    id: 'j1',
    view: { kind: 'thread', operation: 'postRepliesV2', params: { tweetId: '1' } },
    format: 'json',
    scope: 'all',
    caps: {},
    status: 'collecting',
    progress: { pages: 1, items: 20, calls: 1, credits: 300, fraction: 0.25 },
    stopReason: null,
    error: null,
    files: ['/home/a/thread.json'],
    resumable: false,
    startedAt: 0,
    finishedAt: null,
    ...over,
  };
}

describe('export reporter', () => {
  it('drives the taskbar bar while jobs run and notifies when a long one ends', () => {
    const calls: unknown[] = [];
    const report = createExportReporter({
      setProgress: (v) => calls.push(['bar', v]),
      notify: (t, b) => calls.push(['note', t, b]),
    });
    report(job({}));
    report(job({ id: 'j2', progress: { pages: 0, items: 0, calls: 0, credits: 0, fraction: null } }));
    report(job({ id: 'j2', status: 'cancelled', finishedAt: LONG_EXPORT_MS * 2 }));
    report(
      job({
        status: 'complete',
        progress: { pages: 500, items: 10001, calls: 500, credits: 1, fraction: 1 },
        finishedAt: LONG_EXPORT_MS,
      }),
    );
    expect(calls).toEqual([
      ['bar', 0.25],
      ['bar', 'indeterminate'],
      ['bar', 0.25],
      ['bar', null],
      ['note', 'Export complete', '10,001 items written to thread.json.'],
    ]);
  });

  it('stays quiet about short exports', () => {
    const notes: string[] = [];
    const report = createExportReporter({ setProgress: () => undefined, notify: (t) => notes.push(t) });
    report(job({}));
    report(job({ status: 'failed', finishedAt: LONG_EXPORT_MS - 1 }));
    expect(notes).toEqual([]);
  });
});

describe('pre-flight estimate', () => {
  const view = { kind: 'thread' as const, operation: 'postRepliesV2' as const, params: { tweetId: '1' } };
  it('prices the remaining pages from the announced total and the page size seen so far', () => {
    expect(estimateExport({ ...view, loadedPages: 2, loadedItems: 40, expectedItems: 10_040 }, 'all')).toMatchObject({
      remainingPages: 500,
      calls: 500,
      credits: 500 * 300,
    });
  });
  it('says when the number of pages cannot be known, and that loaded pages cost nothing', () => {
    expect(estimateExport(view, 'all')).toMatchObject({ remainingPages: null, calls: null, credits: null });
    expect(estimateExport(view, 'all').basis).toMatch(/set a cap/);
    expect(estimateExport({ ...view, loadedPages: 3 }, 'loaded')).toMatchObject({ calls: 0, credits: 0 });
  });
  it('counts batch calls of 100 ids', () => {
    const ids = Array.from({ length: 250 }, (_, i) => String(10 + i)).join(',');
    expect(
      estimateExport({ kind: 'usersByIds', operation: 'usersByIds', params: { userIds: ids } }, 'all'),
    ).toMatchObject({ calls: 3, credits: 100 * 10 * 2 + 50 * 18 });
  });
});
