/**
 * `npm run bench:ids`: parse time and peak RSS of importing 1,000,000 post ids (a `.txt`, one per line, with
 * a damaged id every 10,000 lines and 1% repeats) and the same as a Skein spreadsheet-flavour CSV (`="…"`
 * ids, a text column), streamed from disk; and the sandbox (`anyIds`) answering 1M foreign post ids in batches
 * of 100 (10% not found). Each run in its own process so its peak RSS is its own.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importIds, type IdFileFormat } from '../src/core/ids/id-import';
import { World } from '../src/sandbox/world';
import { resolveSize } from '../src/sandbox/world/size';
import { writeResults } from './lib/results';
import { runOwnChild } from './lib/runtime';

const COUNT = Number(process.env.BENCH_IDS ?? 1_000_000);

async function makeFile(path: string, csv: boolean): Promise<void> {
  const out = createWriteStream(path);
  if (csv) out.write('\ufeffid,text\r\n');
  let chunk = '';
  for (let n = 0; n < COUNT; n++) {
    const id =
      n % 10_000 === 9_999 ? '1.23457E+18' : String(1_700_000_000_000_000_000n + BigInt(n % 100 === 99 ? n - 1 : n));
    chunk += csv ? `="${id}","post ${n}, with a comma"\r\n` : `${id}\n`;
    if (chunk.length > 1 << 16) {
      if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
      chunk = '';
    }
  }
  out.end(chunk);
  await new Promise<void>((r) => out.once('finish', () => r()));
}

/** The sandbox answering 1M foreign post ids (anyIds), as 10,000 batches of 100, each serialised as served. */
function sandboxChild() {
  const world = new World({ seed: 1, size: resolveSize('default'), now: Date.now(), anyIds: { notFoundPercent: 10 } });
  const before = process.memoryUsage().rss;
  const t0 = performance.now();
  let found = 0;
  let bytes = 0;
  for (let b = 0; b < COUNT / 100; b++) {
    const batch = [];
    for (let k = 0; k < 100; k++) {
      const p = world.lookupPost(String(1_800_000_000_000_000_000n + BigInt(b * 100 + k)));
      if (p) batch.push(p);
    }
    found += batch.length;
    bytes += JSON.stringify({ tweets: batch }).length;
  }
  const ms = performance.now() - t0;
  return {
    format: 'sandbox' as const,
    keepIds: false,
    lines: COUNT,
    accepted: found,
    duplicates: 0,
    damaged: COUNT - found,
    ms: Math.round(ms),
    idsPerSecond: Math.round(COUNT / (ms / 1000)),
    rssBeforeMb: Math.round(before / 1e6),
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    servedMb: Math.round(bytes / 1e6),
  };
}

async function child(format: 'txt' | 'csv', keep: boolean) {
  const dir = await mkdtemp(join(tmpdir(), 'skein-bench-ids-'));
  try {
    const path = join(dir, `ids.${format}`);
    await makeFile(path, format === 'csv');
    const source: IdFileFormat = format === 'csv' ? { format: 'csv', column: 'id', header: true } : { format: 'txt' };
    const before = process.memoryUsage().rss;
    const t0 = performance.now();
    let streamed = 0;
    const summary = await importIds(createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 16 }), {
      kind: 'posts',
      source,
      onId: keep ? undefined : () => streamed++,
    });
    const ms = performance.now() - t0;
    return {
      format,
      keepIds: keep,
      lines: summary.lines,
      accepted: summary.accepted,
      duplicates: summary.duplicates,
      damaged: summary.damagedTotal,
      ms: Math.round(ms),
      idsPerSecond: Math.round(summary.accepted / (ms / 1000)),
      rssBeforeMb: Math.round(before / 1e6),
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const args = process.argv.slice(2);
if (args[0] === '--child') {
  process.send?.(args[1] === 'sandbox' ? sandboxChild() : await child(args[1] as 'txt' | 'csv', args[2] === 'keep'));
} else {
  const results = [];
  for (const [format, keep] of [
    ['txt', 'keep'],
    ['csv', 'keep'],
    ['txt', 'stream'],
    ['sandbox', 'stream'],
  ] as const) {
    const r = await runOwnChild<Awaited<ReturnType<typeof child>>>(import.meta.url, ['--child', format, keep]);
    results.push(r);
    console.log(
      `${format} ${keep.padEnd(6)} ${r.lines} lines: ${r.accepted} ids, ${r.duplicates} repeats, ${r.damaged} damaged in ${r.ms} ms (${r.idsPerSecond} ids/s), peak RSS ${r.peakRssMb} MB (${r.rssBeforeMb} MB before)`,
    );
  }
  console.log(`results: ${writeResults('ids', { count: COUNT, results })}`);
}
