/**
 * Keeping the media of demo posts from the sandbox, on a project file and a team's PostgreSQL schema: every
 * file kept under its hash (re-hashed here), each URL fetched once (the sandbox's media log), keeping again
 * fetches nothing and stores no byte; a cancel stops, keeping again resumes; verify finds a flipped byte and a
 * deleted file. Each run's files are timestamped by the sandbox's authority, the attempts recorded in the
 * project, and verify checks every token: a changed manifest, token or file it names is a problem.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox as RunningSandbox } from '../../sandbox';
import { migrateParts } from '../db';
import { DIALECTS } from '../db/testing/dialects';
import { DEFAULT_FETCH_POLICY, type FetchPolicy } from './fetch';
import { keepMedia } from './keep';
import { candidatesOf, estimate, type Candidate } from './plan';
import { MEDIA_PART } from './tables/part';
import { profilePosts } from './testing/profile-posts';
import { readKept, verifyMedia } from './verify';
import type { TimestampSettings } from '../timestamp';

let sandbox: RunningSandbox;
let root: string;
const posts: unknown[] = [];
let policy: FetchPolicy;

const mediaLog = async () =>
  (
    (await (await fetch(`${sandbox.baseUrl}/__sandbox/media-requests`)).json()) as {
      requests: { url: string }[];
    }
  ).requests.map((r) => r.url);

beforeAll(async () => {
  sandbox = await startSandbox({ size: 'small', now: () => Date.UTC(2026, 10, 1) });
  root = await mkdtemp(join(tmpdir(), 'skein-keep-'));
  policy = { ...DEFAULT_FETCH_POLICY, trustedOrigins: [new URL(sandbox.baseUrl).origin] };
  posts.push(...(await profilePosts(sandbox)));
}, 60_000);

afterAll(async () => {
  await sandbox.close();
  await rm(root, { recursive: true, force: true });
});

describe('choosing what to keep', () => {
  it('a video is kept at its highest bitrate (or under a chosen maximum), a photo at its original size', () => {
    const all = posts.flatMap((p) => candidatesOf(p));
    const kinds = new Set(all.map((c) => c.kind));
    expect(kinds).toEqual(new Set(['photo', 'video', 'animated_gif']));
    const video = all.find((c) => c.kind === 'video') as Candidate;
    expect(video.url).toMatch(/-2176000\.mp4$/);
    expect(video.bytes).toBeGreaterThan(0);
    const capped = posts.flatMap((p) => candidatesOf(p, 1_000_000)).find((c) => c.kind === 'video') as Candidate;
    expect(capped.url).toMatch(/-832000\.mp4$/);
    const e = estimate(all, new Set([all[0]?.url as string]));
    expect(e.alreadyKept).toBe(1);
    expect(e.files).toBe(all.length - 1);
    expect(e.knownBytes).toBeGreaterThan(0);
    expect(e.guessedFiles).toBeGreaterThan(0);
    expect(e.seconds).toBeGreaterThan(0);
  });
});

describe.each(DIALECTS)('keeping media on $name', (d) => {
  beforeAll(d.setup, 120_000);
  afterAll(d.teardown);
  const maybe = d.skip ? it.skip : it;
  if (d.skip) it.skip(`(${d.skip})`, () => undefined);

  maybe('keeps each file once by content, fetches each URL once, and keeping again adds nothing', async () => {
    const db = await d.fresh();
    await migrateParts(db, [MEDIA_PART], 0);
    const store = MEDIA_PART.open(db, { now: Date.now });
    const folder = join(root, `${d.name}-media`);
    const candidates = posts.flatMap((p) => candidatesOf(p));
    const urls = [...new Set(candidates.map((c) => c.url))];
    await fetch(`${sandbox.baseUrl}/__sandbox/media-requests`, { method: 'DELETE' });

    const first = await keepMedia(candidates, { store, folder, policy, now: Date.now });
    expect(first).toMatchObject({ total: urls.length, done: urls.length, kept: urls.length, failed: 0 });
    expect(first.storedBytes).toBeGreaterThan(0);
    const fetched = await mediaLog();
    expect(fetched.sort()).toEqual(urls.map((u) => new URL(u).pathname + new URL(u).search).sort());

    const files = await store.files();
    expect(await store.summary()).toEqual({
      files: files.length,
      bytes: files.reduce((a, f) => a + f.size, 0),
    });
    for (const f of files) {
      const bytes = await readFile(join(folder, f.name));
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(f.sha256);
      expect(bytes.length).toBe(f.size);
    }
    const video = (await store.keptFor(candidates.map((c) => c.postId))).find((k) => k.mime === 'video/mp4');
    expect(video?.url).toMatch(/\.mp4$/);

    const again = await keepMedia(candidates, { store, folder, policy, now: Date.now });
    expect(again).toMatchObject({ total: 0, storedBytes: 0, alreadyKept: urls.length });
    expect((await mediaLog()).length).toBe(fetched.length);

    expect(await verifyMedia(store, folder)).toEqual({
      checked: files.length,
      bytes: files.reduce((a, f) => a + f.size, 0),
      matched: files.length,
      changed: [],
      missing: [],
      tokens: { checked: 0, problems: [] },
    });
  });

  maybe('each run’s kept files are timestamped, and verify checks every token it kept', async () => {
    const db = await d.fresh();
    await migrateParts(db, [MEDIA_PART], 0);
    const store = MEDIA_PART.open(db, { now: Date.now });
    const folder = join(root, `${d.name}-timestamped`);
    const timestamp: TimestampSettings = {
      authorities: [`${sandbox.baseUrl}/tsa-down`, `${sandbox.baseUrl}/tsa`],
      noneReason: 'none set',
      project: 'study',
      policy,
    };
    const candidates = posts.flatMap((p) => candidatesOf(p));
    const half = candidates.slice(0, 4);
    const first = await keepMedia(half, { store, folder, policy, now: Date.now, timestamp });
    expect(first.timestamp).toMatchObject({ authority: `${sandbox.baseUrl}/tsa`, reason: null, files: first.kept });
    const second = await keepMedia(candidates, { store, folder, policy, now: Date.now, timestamp });
    expect(second.timestamp?.token).toBeTruthy();
    // a run that fetched nothing has nothing to timestamp
    expect((await keepMedia(candidates, { store, folder, policy, now: Date.now, timestamp })).timestamp).toBeNull();
    // every attempt is in the project: the authority that was down, then the one that granted, twice
    const attempts = await store.timestamps();
    expect(attempts.map((a) => [a.status, a.authority]).reverse()).toEqual([
      ['failed', `${sandbox.baseUrl}/tsa-down`],
      ['granted', `${sandbox.baseUrl}/tsa`],
      ['failed', `${sandbox.baseUrl}/tsa-down`],
      ['granted', `${sandbox.baseUrl}/tsa`],
    ]);
    expect(attempts[3]?.reason).toBe('the authority is unavailable (it answered 503)');

    const clean = await verifyMedia(store, folder);
    expect(clean.tokens).toEqual({ checked: 2, problems: [] });

    // a changed token, a changed manifest, and a changed file a manifest names: each a problem in plain words
    const [one, two] = await store.tokens();
    const token = await readFile(join(folder, one?.token as string));
    token[token.length - 5] = (token[token.length - 5] as number) ^ 1;
    await writeFile(join(folder, one?.token as string), token);
    await writeFile(join(folder, two?.manifest as string), 'a manifest written later\n', { flag: 'a' });
    const problems = (await verifyMedia(store, folder)).tokens.problems;
    expect(problems.map((p) => [p.token, p.problem])).toEqual([
      [one?.token, 'the token changed after it was kept'],
      [two?.token, 'its manifest changed after it was timestamped'],
    ]);
  });

  maybe('a token whose manifest names a file that changed no longer proves it', async () => {
    const db = await d.fresh();
    await migrateParts(db, [MEDIA_PART], 0);
    const store = MEDIA_PART.open(db, { now: Date.now });
    const folder = join(root, `${d.name}-timestamped-file`);
    const timestamp: TimestampSettings = {
      authorities: [`${sandbox.baseUrl}/tsa`],
      noneReason: 'none set',
      project: 'study',
      policy,
    };
    await keepMedia(posts.flatMap((p) => candidatesOf(p)).slice(0, 3), {
      store,
      folder,
      policy,
      now: Date.now,
      timestamp,
    });
    const [file] = await store.files();
    const bytes = await readFile(join(folder, file?.name as string));
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 1;
    await writeFile(join(folder, file?.name as string), bytes);
    const report = await verifyMedia(store, folder);
    expect(report.changed).toHaveLength(1);
    expect(report.tokens.problems.map((p) => p.problem)).toEqual([
      '1 of the files it names is no longer kept unchanged',
    ]);
  });

  maybe('a cancelled keeping is resumed by keeping again, and verify finds what changed', async () => {
    const db = await d.fresh();
    await migrateParts(db, [MEDIA_PART], 0);
    const store = MEDIA_PART.open(db, { now: Date.now });
    const folder = join(root, `${d.name}-resume`);
    const candidates = posts.flatMap((p) => candidatesOf(p));
    const ac = new AbortController();
    const cut = await keepMedia(
      candidates,
      { store, folder, policy, now: Date.now, concurrency: 1 },
      ac.signal,
      (p) => {
        if (p.done === 3) ac.abort();
      },
    );
    expect(cut.cancelled).toBe(true);
    expect(cut.done).toBe(3);
    const rest = await keepMedia(candidates, { store, folder, policy, now: Date.now });
    expect(rest.alreadyKept).toBe(3);
    expect(rest.done).toBe(rest.total);
    expect(rest.failed).toBe(0);

    const [a, b] = await store.files();
    const shown = await readKept(store, folder, a?.sha256 as string);
    expect(shown).toMatchObject({ sha256: a?.sha256, mime: a?.mime, intact: true });
    expect(shown?.bytes?.length).toBe(a?.size);
    const flipped = await readFile(join(folder, a?.name as string));
    flipped.writeUInt8((flipped.at(-1) as number) ^ 1, flipped.length - 1);
    await writeFile(join(folder, a?.name as string), flipped);
    await unlink(join(folder, b?.name as string));
    const report = await verifyMedia(store, folder);
    expect(report.changed).toEqual([expect.objectContaining({ name: a?.name, expected: a?.sha256 })]);
    expect(report.missing).toEqual([expect.objectContaining({ name: b?.name, expected: b?.sha256 })]);
    expect(report.missing[0]?.uses.length).toBeGreaterThan(0);
    expect(await readKept(store, folder, a?.sha256 as string)).toMatchObject({ intact: false });
    expect(await readKept(store, folder, b?.sha256 as string)).toMatchObject({ bytes: null, intact: false });
    expect(await readKept(store, folder, 'f'.repeat(64))).toBeNull();
  });
});
