/**
 * An evidence package of demo posts whose media were kept (one URL made to fail), on a project file and a team's
 * PostgreSQL schema, opened with a researcher's tools: Python's zipfile unpacks it, `sha256sum -c` checks every
 * file, `openssl ts -verify` checks the manifest's token and each run's token against the sandbox authority's CA;
 * the manifest names each post's media with its hash and token, or the reason it is not there. A kept file changed
 * on disk is left out and named, never packed as evidence.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox as RunningSandbox } from '../../sandbox';
import { migrateParts } from '../db';
import { DIALECTS } from '../db/testing/dialects';
import { writeEvidencePackage, type EvidenceItem, type EvidencePage } from './evidence';
import { DEFAULT_FETCH_POLICY, type FetchPolicy } from './fetch';
import { keepMedia } from './keep';
import { candidatesOf } from './plan';
import { MEDIA_PART } from './tables/part';
import { profilePosts } from './testing/profile-posts';
import { timestampRun, type KeptToken, type TimestampSettings } from '../timestamp';
import { createHash } from 'node:crypto';

const tool = (name: string) =>
  ['/usr/bin', '/bin', '/usr/local/bin'].some((d) => existsSync(join(d, name))) ? null : `${name} is not installed`;
const missing = tool('openssl') ?? tool('python3') ?? tool('sha256sum');
if (missing && process.env.CI) throw new Error(`CI installs openssl, python3 and coreutils: ${missing}`);

let sandbox: RunningSandbox;
let root: string;
let policy: FetchPolicy;
const posts: Array<{ id: string; raw: string }> = [];

beforeAll(async () => {
  sandbox = await startSandbox({ size: 'small', now: () => Date.UTC(2026, 10, 1) });
  root = await mkdtemp(join(tmpdir(), 'skein-evidence-'));
  policy = { ...DEFAULT_FETCH_POLICY, trustedOrigins: [new URL(sandbox.baseUrl).origin] };
  for (const p of await profilePosts(sandbox)) posts.push({ id: p.id, raw: JSON.stringify(p) });
}, 60_000);

afterAll(async () => {
  await sandbox.close();
  await rm(root, { recursive: true, force: true });
});

describe.each(DIALECTS)('an evidence package on $name', (d) => {
  beforeAll(d.setup, 120_000);
  afterAll(d.teardown);
  const maybe = d.skip || missing ? it.skip : it;
  if (d.skip || missing) it.skip(`(${d.skip ?? missing})`, () => undefined);

  maybe('holds the posts, their media and tokens, and checks with sha256sum and openssl', async () => {
    const db = await d.fresh();
    await migrateParts(db, [MEDIA_PART], 0);
    const store = MEDIA_PART.open(db, { now: Date.now });
    const folder = join(root, `${d.name}-media`);
    const timestamp: TimestampSettings = {
      authorities: [`${sandbox.baseUrl}/tsa`],
      noneReason: 'none set',
      project: 'study',
      policy,
    };
    const candidates = posts.flatMap((p) => candidatesOf(JSON.parse(p.raw)));
    expect(candidates.length).toBeGreaterThan(3);
    // one URL that is gone: its post's media is in the manifest with the reason
    const gone = { ...candidates[0]!, url: `${sandbox.baseUrl}/media/gone.png` };
    const kept = await keepMedia([gone, ...candidates.slice(1)], { store, folder, policy, now: Date.now, timestamp });
    expect(kept.failed).toBe(1);
    expect(kept.timestamp?.token).toBeTruthy();

    // the linked pages, as the pages area would answer: one captured (its WACZ in the pages folder), one that
    // failed, the rest never tried
    const pagesFolder = join(root, `${d.name}-pages`);
    await mkdir(pagesFolder, { recursive: true });
    const waczText = 'a web archive standing in for one';
    await writeFile(join(pagesFolder, 'run-1.wacz'), waczText);
    // its capture run's token, as the pages area keeps one (in the pages folder's timestamps/)
    const pageTokens: KeptToken[] = [];
    const waczSha = createHash('sha256').update(waczText).digest('hex');
    await timestampRun(
      [{ sha256: waczSha, size: waczText.length, url: 'run-1.wacz' }],
      timestamp,
      {
        recordTimestamp: async (r) => {
          if (r.status === 'granted') pageTokens.push(r as KeptToken);
        },
      },
      pagesFolder,
      Date.now,
    );
    expect(pageTokens).toHaveLength(1);
    const linkOf = (raw: string) => `https://example.org/${(JSON.parse(raw) as { id: string }).id.slice(-4)}`;
    const linked = posts.slice(0, 3).map((p) => linkOf(p.raw));
    const pages = {
      folder: pagesFolder,
      urlsOf: (raw: string) => (linked.includes(linkOf(raw)) ? [linkOf(raw)] : []),
      tokens: async () => pageTokens,
      outcomes: async (urls: readonly string[]) =>
        urls
          .filter((u) => u !== linked[2])
          .map((url) => ({
            url,
            state: url === linked[0] ? ('captured' as const) : ('failed' as const),
            at: Date.UTC(2026, 10, 1),
            status: url === linked[0] ? 200 : 404,
            size: url === linked[0] ? 1234 : null,
            mime: url === linked[0] ? 'text/html' : null,
            sha256: url === linked[0] ? 'a'.repeat(64) : null,
            finalUrl: url === linked[0] ? url : null,
            wacz: url === linked[0] ? 'run-1.wacz' : null,
            reason: url === linked[0] ? null : 'gone',
            message: url === linked[0] ? null : 'the page is gone (404)',
            // what a web archive's save service answered: a capture for the first, a reason for the second
            save: {
              state: url === linked[0] ? ('saved' as const) : ('failed' as const),
              at: Date.UTC(2026, 10, 1, 0, 1),
              service: 'https://web.archive.org/save/',
              status: url === linked[0] ? 302 : 520,
              captureUrl: url === linked[0] ? `https://web.archive.org/web/20261101000100/${url}` : null,
              reason: url === linked[0] ? null : 'failed',
              message: url === linked[0] ? null : 'the save service answered 520',
            },
          })),
    };

    const target = join(root, `${d.name}-evidence.zip`);
    const summary = await writeEvidencePackage(target, {
      posts: async (each) => {
        for (const p of posts) await each(p.id, p.raw);
      },
      store,
      folder,
      pages,
      timestamp,
      about: { project: 'study', collection: { id: 3, name: 'Profile' }, madeBy: 'Skein test' },
      now: Date.now,
    });
    expect(summary).toMatchObject({
      posts: posts.length,
      changed: 0,
      tokens: 2,
      pages: 3,
      pagesCaptured: 1,
      manifestTokenReason: null,
      damaged: 0,
    });
    expect(summary.files).toBe(kept.kept);

    // unpacked by Python's zipfile, as a researcher would
    const out = join(root, `${d.name}-unpacked`);
    execFileSync('python3', [
      '-c',
      'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])',
      target,
      out,
    ]);
    expect(execFileSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: out, encoding: 'utf8' })).not.toMatch(/FAILED/);
    const lines = (await readFile(join(out, 'posts.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(posts.map((p) => p.id));
    expect((await readdir(join(out, 'media'))).length).toBe(kept.kept);

    const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8')) as {
      items: EvidenceItem[];
      posts: { count: number };
      linked_pages: EvidencePage[];
    };
    expect(await readFile(join(out, 'pages', 'run-1.wacz'), 'utf8')).toBe('a web archive standing in for one');
    expect(manifest.linked_pages.map((p) => [p.url, p.wacz, p.failure])).toEqual(
      [
        [linked[0], 'pages/run-1.wacz', null],
        [linked[1], null, 'the page is gone (404)'],
        [linked[2], null, 'not captured yet (Keep linked pages first)'],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    expect(manifest.linked_pages.find((p) => p.url === linked[0])?.post_ids).toEqual([posts[0]?.id]);
    expect(manifest.linked_pages.find((p) => p.url === linked[0])?.web_archive).toEqual({
      service: 'https://web.archive.org/save/',
      capture_url: `https://web.archive.org/web/20261101000100/${linked[0]}`,
      asked_at: '2026-11-01T00:01:00.000Z',
      http_status: 302,
      failure: null,
    });
    expect(manifest.linked_pages.find((p) => p.url === linked[1])?.web_archive).toMatchObject({
      capture_url: null,
      failure: 'the save service answered 520',
    });
    expect(manifest.linked_pages.find((p) => p.url === linked[2])?.web_archive).toBeNull();
    expect(manifest.posts.count).toBe(posts.length);
    const failed = manifest.items.filter((i) => i.file === null);
    expect(failed).toEqual([expect.objectContaining({ url: gone.url, failure: expect.any(String), sha256: null })]);
    for (const i of manifest.items.filter((x) => x.file !== null)) {
      expect(i.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(i.timestamp?.token).toMatch(/^timestamps\/.+\.tsr$/);
    }

    // the tokens verify with openssl against the authority's published CA
    const ca = join(root, `${d.name}-ca.pem`);
    await writeFile(ca, await (await fetch(`${sandbox.baseUrl}/tsa/certificate.pem`)).text());
    const verify = (data: string, token: string) =>
      execFileSync('openssl', ['ts', '-verify', '-data', data, '-in', token, '-CAfile', ca], {
        cwd: out,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    expect(verify('manifest.json', 'manifest.json.tsr')).toContain('Verification: OK');
    const run = manifest.items.find((i) => i.timestamp)?.timestamp;
    expect(verify(run!.manifest, run!.token)).toContain('Verification: OK');
    // the captured page's WACZ is dated by its capture run's token, which names the WACZ's hash and verifies
    const dated = manifest.linked_pages.find((p) => p.url === linked[0])?.timestamp;
    expect(dated?.token).toMatch(/^timestamps\/pages\/.+\.tsr$/);
    expect(await readFile(join(out, dated!.manifest), 'utf8')).toContain(waczSha);
    expect(verify(dated!.manifest, dated!.token)).toContain('Verification: OK');
    expect(manifest.linked_pages.filter((p) => p.url !== linked[0]).map((p) => p.timestamp)).toEqual([null, null]);
    // a manifest changed by one byte no longer verifies
    await writeFile(join(out, 'manifest.json'), ' ', { flag: 'a' });
    expect(() => verify('manifest.json', 'manifest.json.tsr')).toThrow();
  });

  maybe('leaves out a kept file whose bytes changed, and names it', async () => {
    const db = await d.fresh();
    await migrateParts(db, [MEDIA_PART], 0);
    const store = MEDIA_PART.open(db, { now: Date.now });
    const folder = join(root, `${d.name}-changed`);
    const candidates = posts.flatMap((p) => candidatesOf(JSON.parse(p.raw))).slice(0, 3);
    await keepMedia(candidates, { store, folder, policy, now: Date.now });
    const [first] = await store.files();
    const bytes = await readFile(join(folder, first!.name));
    bytes[10] = (bytes[10] as number) ^ 1;
    await writeFile(join(folder, first!.name), bytes);
    const target = join(root, `${d.name}-changed.zip`);
    const summary = await writeEvidencePackage(target, {
      posts: async (each) => {
        for (const p of posts) await each(p.id, p.raw);
      },
      store,
      folder,
      damaged: { count: 3, ids: ['1990000000000000001', '1990000000000000002'] },
      timestamp: { authorities: [], noneReason: 'no authority is set', project: 'study', policy },
      about: { project: 'study', collection: { id: 1, name: 'Three' }, madeBy: 'Skein test' },
      now: Date.now,
    });
    expect(summary).toMatchObject({
      changed: 1,
      damaged: 3,
      manifestToken: null,
      manifestTokenReason: 'no authority is set',
    });
    const out = join(root, `${d.name}-changed-unpacked`);
    execFileSync('python3', [
      '-c',
      'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])',
      target,
      out,
    ]);
    const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8')) as {
      items: EvidenceItem[];
      posts: { count: number; left_out_damaged?: { posts: number; ids: string[]; note: string } };
    };
    // the damaged posts it could not pack are named, with why and how to mend them, in the manifest and README
    expect(manifest.posts.count).toBe(posts.length);
    expect(manifest.posts.left_out_damaged).toEqual({
      posts: 3,
      ids: ['1990000000000000001', '1990000000000000002'],
      note: expect.stringMatching(/no longer reads .* hydrating their ids buys them again .*; the first 2 are named$/),
    });
    expect(await readFile(join(out, 'README.txt'), 'utf8')).toContain(
      'Not here: 3 posts of the collection (named in manifest.json, posts.left_out_damaged)',
    );
    const named = manifest.items.filter((i) => i.sha256 === first!.sha256);
    expect(named.length).toBeGreaterThan(0);
    for (const i of named) {
      expect(i.file).toBeNull();
      expect(i.failure).toMatch(/no longer matches its hash/);
    }
  });
});
