/**
 * The journal keeps each item as the JSON text that arrived, and what an export writes from it equals, row for row,
 * what it wrote when the journal kept the parsed item written out again (a source that gives no texts: that path
 * is still the fallback). On the demo sandbox and on a hostile answer: markup, escapes (`\u2028`, a surrogate pair,
 * `\/`), a count beyond 2^53 written as a number, empty nested objects, an item nested too deep (cut by the
 * client: its text is no longer that item), and an answer written over several lines.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportFormat, ViewDescriptor } from '../../shared/ipc/export';
import { CUT_MARKER } from '../../shared/api/normalize/depth';
import { startSandbox, type Sandbox } from '../../sandbox';
import { createApiClient } from '../api/client';
import { createRateLimiter } from '../api/policy/rate-limiter';
import type { FetchLike } from '../api/transport';
import { systemClock } from '../clock';
import { clientPageSource } from '../compose/client-page-source';
import type { Clock } from '../ports';
import type { PageSource, SourcePage } from '../walk';
import { ExportService } from './export-service';

const FIXED = Date.UTC(2026, 10, 22, 2, 13, 21);
/** one time for every run, so two exports of the same answers can be compared byte for byte */
const clock: Clock = { ...systemClock, now: () => FIXED };

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ size: 'small', now: () => FIXED });
});
afterAll(async () => sandbox?.close());

interface Run {
  /** the files' text, by format */
  files: Record<string, string>;
  /** the journal's items as written (the last format's run) */
  journal: string[];
  /** the pages the source gave */
  pages: SourcePage[];
}

const FORMATS: ExportFormat[] = ['json', 'jsonl', 'csv', 'parquet'];

/** Exports `view` in each format through Skein's client; `texts: false` keeps the journal from the received texts. */
async function exportAll(fetchFn: FetchLike, baseUrl: string, view: ViewDescriptor, texts: boolean): Promise<Run> {
  const files: Record<string, string> = {};
  let journal: string[] = [];
  const pages: SourcePage[] = [];
  for (const format of FORMATS) {
    const client = createApiClient({
      target: async () => ({ baseUrl, key: null, limiter: createRateLimiter(clock, Infinity) }),
      fetch: fetchFn,
      clock,
    });
    const inner = clientPageSource(client);
    const source: PageSource = {
      ...inner,
      async fetchPage(request) {
        const page = await inner.fetchPage(request);
        pages.push(page);
        if (texts) return page;
        const { rawTexts: _dropped, ...without } = page;
        return without;
      },
    };
    const dir = await mkdtemp(join(tmpdir(), 'skein-received-'));
    const service = new ExportService({
      source,
      stateDir: join(dir, 'state'),
      clock,
      context: () => ({ appName: 'Skein', appVersion: '0.1.0', mode: 'demo', baseUrl }),
      confirm: async () => true,
      // the journal as the export's files were written from it (the job's folder goes once it is done)
      onWritten: async ({ items }) => {
        journal = [];
        for await (const it of items()) journal.push(typeof it.raw === 'string' ? it.raw : it.raw.toString('utf8'));
      },
    });
    const target = join(dir, `out.${format}`);
    const job = await service.start({ view, format, scope: 'all', targetPath: target });
    const done = await service.settled(job.id);
    expect(done.error).toBeNull();
    // Parquet's bytes as base64: compared whole
    files[format] = await readFile(target, format === 'parquet' ? 'base64' : 'utf8');
  }
  return { files, journal, pages };
}

const jsonItems = (text: string) => (JSON.parse(text) as { items: unknown[] }).items;
const jsonlItems = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as unknown);

/** JSON's own equality: a value as written out (`-0` read back is written `0`: JSON.stringify has no minus zero) */
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

/** The export written from the texts equals the one written from the parsed items, format by format. */
function expectSameExports(now: Run, before: Run): void {
  expect(asJson(jsonItems(now.files.json ?? ''))).toEqual(asJson(jsonItems(before.files.json ?? '')));
  expect(asJson(jsonlItems(now.files.jsonl ?? ''))).toEqual(asJson(jsonlItems(before.files.jsonl ?? '')));
  // CSV writes its cells from the parsed item either way: the same bytes
  expect(now.files.csv).toBe(before.files.csv);
  expect(parse(now.files.csv ?? '')).toEqual(parse(before.files.csv ?? ''));
  // so does Parquet: its columns come from the parsed item
  expect(now.files.parquet).toBe(before.files.parquet);
}

/** Each journal item is the text the page gave (or, with none, its item written out) and parses to the page's item. */
function expectJournalOfPages(run: Run): void {
  const items = run.pages.flatMap((p) => p.rawItems);
  const texts = run.pages.flatMap((p) => p.rawItems.map((_, i) => p.rawTexts?.[i] ?? null));
  // the last format's walk: its pages are the last ones asked
  const last = items.slice(-run.journal.length);
  const lastTexts = texts.slice(-run.journal.length);
  expect(run.journal).toHaveLength(last.length);
  run.journal.forEach((raw, i) => {
    expect(JSON.parse(raw)).toEqual(last[i]);
    expect(raw).toBe((lastTexts[i] ?? JSON.stringify(last[i])).replace(/[\r\n]/g, ' '));
  });
}

describe('the journal keeps items as they arrived', () => {
  it('demo sandbox: the journal holds each answer slice, and every export equals the one from written-out items', async () => {
    const ex = sandbox.examples;
    const view: ViewDescriptor = {
      kind: 'thread',
      operation: 'postRepliesV2',
      params: { tweetId: ex.bigThreadPostId, queryType: 'Latest' },
      title: 'thread',
    };
    const now = await exportAll(fetch, sandbox.baseUrl, view, true);
    const before = await exportAll(fetch, sandbox.baseUrl, view, false);
    expect(now.journal.length).toBeGreaterThan(20);
    // every item of a served page came with its text
    expect(
      now.pages.every((p) => p.rawTexts?.length === p.rawItems.length && p.rawTexts.every((t) => t !== null)),
    ).toBe(true);
    expectJournalOfPages(now);
    expectSameExports(now, before);
  });

  it('a hostile answer: escapes and digits kept as sent, a cut item written out, the exports equal', async () => {
    const probe = await fetch(`${sandbox.baseUrl}/social/user/tweet_timeline?userId=${sandbox.examples.profile.id}`);
    const sample = (JSON.parse(await probe.text()) as { tweets?: unknown[] }).tweets?.[0] as
      Record<string, unknown> | undefined;
    expect(sample).toBeDefined();
    const base = JSON.stringify({ ...sample, id: undefined });
    const deep = `${'{"n":'.repeat(80)}{}${'}'.repeat(80)}`;
    const item = (id: string, extra: string) => `{"id":"${id}",${extra}${base.slice(1)}`;
    const hostile = [
      item(
        '1900000000000000001',
        '"hostile":"<img src=x onerror=alert(1)> \\u2028 \\ud83d\\ude00 \\/ \\"q\\"","big":12345678901234567890,"empty":{"a":{},"b":[]},',
      ),
      item('1900000000000000002', `"deep":${deep},`),
      item('1900000000000000003', '"tiny":-0.0,"exp":1E+2,'),
    ];
    // written over several lines, tabs between tokens, as a pretty-printing service would
    const body = `{\n\t"tweets": [\n\t\t${hostile.join(',\n\t\t')}\n\t],\n\t"has_next_page": false,\n\t"next_cursor": ""\n}\n`;
    const hostileFetch: FetchLike = async () =>
      new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
    const view: ViewDescriptor = {
      kind: 'timeline',
      operation: 'userTimeline',
      params: { userId: sandbox.examples.profile.id },
      title: 'timeline',
    };
    const now = await exportAll(hostileFetch, 'http://hostile.invalid', view, true);
    const before = await exportAll(hostileFetch, 'http://hostile.invalid', view, false);
    expect(now.journal).toHaveLength(3);
    expectJournalOfPages(now);
    // the evidence as it arrived: the escapes and all the digits (written out again: 12345678901234567000)
    expect(now.journal[0]).toBe(hostile[0]);
    expect(now.journal[0]).toContain('12345678901234567890');
    expect(before.journal[0]).toContain('12345678901234567000');
    expect(now.journal[2]).toBe(hostile[2]);
    // the item the client cut is not what arrived: written out as the client keeps it
    expect(now.journal[1]).toContain(CUT_MARKER);
    expect(now.journal[1]).toBe(before.journal[1]);
    // the JSON and JSONL files carry the received text, and still parse to the same rows
    expect(now.files.jsonl).toContain('12345678901234567890');
    expect(now.files.json).toContain('\\u2028 \\ud83d\\ude00 \\/');
    expectSameExports(now, before);
    // and one value only the received text keeps: a minus zero, which written out again lost its sign
    const tiny = (run: Run) => (jsonlItems(run.files.jsonl ?? '')[2] as { item: { tiny: number } }).item.tiny;
    expect(Object.is(tiny(now), -0)).toBe(true);
    expect(Object.is(tiny(before), 0)).toBe(true);
  });
});
