/**
 * Capturing the pages demo posts link to, from the sandbox's small web, on a project file and a team's
 * PostgreSQL schema: every linked URL of the collection ends captured or with its reason (gone, refused for
 * the redirect to this machine and for plain http), each page fetched once (the sandbox's web log); capturing
 * again fetches nothing and adds no row. The WACZ is read back by Python's zipfile, hashlib and gzip and by
 * warcio's WARCParser: the hashes hold, every page is there with the bytes the sandbox served, and each CDXJ
 * line points at a record of its URL.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox as RunningSandbox } from '../../sandbox';
import { DEFAULT_SEED } from '../../sandbox/server';
import { webKind, webPage, type WebKind } from '../../sandbox/web';
import { sandboxWebRoute } from '../compose/pages';
import { migrateParts, sql } from '../db';
import { DIALECTS } from '../db/testing/dialects';
import { DEFAULT_FETCH_POLICY, type FetchPolicy } from '../net';
import { checkToken, type TimestampSettings } from '../timestamp';
import { capturePages, PAGE_LIMITS, type PageRoute } from './capture';
import { linksOf, type PageLink } from './links';
import { PAGES_PART } from './tables/part';
import { readWithPython, readWithWarcio } from './testing/readers';

let sandbox: RunningSandbox;
let root: string;
let policy: FetchPolicy;
let route: PageRoute;
const links: PageLink[] = [];
/** a made-up host's path that answers the given way */
const pathOf = (kind: WebKind, host = 'news.example'): string => {
  for (let i = 0; i < 1_000; i++) if (webKind(DEFAULT_SEED, host, `story-${i}`) === kind) return `story-${i}`;
  throw new Error(`no ${kind} page`);
};

/** a post linking to these URLs */
const made = (id: string, ...urls: string[]) =>
  linksOf({ id, entities: { urls: urls.map((u) => ({ expanded_url: u, url: 'https://t.co/x' })) } });

const webLog = async () =>
  ((await (await fetch(`${sandbox.baseUrl}/__sandbox/web-requests`)).json()) as { requests: { url: string }[] })
    .requests;

beforeAll(async () => {
  sandbox = await startSandbox({ size: 'small', now: () => Date.UTC(2026, 10, 1) });
  root = await mkdtemp(join(tmpdir(), 'skein-pages-'));
  policy = { ...DEFAULT_FETCH_POLICY, ...PAGE_LIMITS, trustedOrigins: [new URL(sandbox.baseUrl).origin] };
  route = sandboxWebRoute(sandbox.baseUrl);
  let cursor = '';
  for (let page = 0; page < 8; page++) {
    const res = await fetch(
      `${sandbox.baseUrl}/social/user/tweet_timeline?userId=${sandbox.examples.profile.id}${cursor ? `&cursor=${cursor}` : ''}`,
    );
    const body = (await res.json()) as { data?: { tweets?: unknown[] }; tweets?: unknown[]; next_cursor?: string };
    for (const post of body.data?.tweets ?? body.tweets ?? []) links.push(...linksOf(post));
    if (!body.next_cursor) break;
    cursor = encodeURIComponent(body.next_cursor);
  }
  // posts of the collection whose links answer every way the web can, two posts sharing one, and links that
  // are the platform's own (left out)
  links.push(
    ...made(
      '9001',
      ...(['page', 'gone', 'moved', 'inner', 'slow'] as const).map((k) => `https://news.example/${pathOf(k)}`),
    ),
    ...made('9002', `https://news.example/${pathOf('page')}#comments`, 'http://plain.example/story'),
    ...made('9003', 'https://social.example/someone/status/123/photo/1', 'https://t.co/abcdef'),
  );
}, 60_000);

afterAll(async () => {
  await sandbox.close();
  await rm(root, { recursive: true, force: true });
});

/** why `openssl` cannot be run here, or null; in CI its absence is a failure (.ci/run installs it) */
function opensslMissing(): string | null {
  const probe = spawnSync('openssl', ['version'], { encoding: 'utf8' });
  if (!probe.error && probe.status === 0) return null;
  if (process.env.CI) throw new Error('openssl is missing: .ci/run installs it');
  return 'openssl is not installed here';
}
const NO_AUTHORITY = 'no timestamp authority is set in Settings, so no trusted time was asked for';

describe('which links a post has', () => {
  it("its expanded links, without the platform's own status and photo links or a fragment", () => {
    const urls = new Set(links.map((l) => l.url));
    expect(urls.has('https://social.example/someone/status/123/photo/1')).toBe(false);
    expect(urls.has('https://t.co/abcdef')).toBe(false);
    expect(urls.has(`https://news.example/${pathOf('page')}`)).toBe(true);
    expect([...urls].some((u) => u.includes('#'))).toBe(false);
    expect(links.filter((l) => l.url === `https://news.example/${pathOf('page')}`).map((l) => l.postId)).toEqual([
      '9001',
      '9002',
    ]);
    // the world's own posts link to pages too
    expect(links.filter((l) => !l.postId.startsWith('900')).length).toBeGreaterThan(3);
  });
});

describe.each(DIALECTS)('capturing linked pages on $name', (d) => {
  beforeAll(d.setup, 120_000);
  afterAll(d.teardown);
  const maybe = d.skip ? it.skip : it;
  if (d.skip) it.skip(`(${d.skip})`, () => undefined);

  maybe(
    'every linked URL ends captured or with its reason, once; capturing again fetches nothing and adds no row',
    async () => {
      const db = await d.fresh();
      await migrateParts(db, [PAGES_PART], 0);
      const store = PAGES_PART.open(db, { now: Date.now });
      const folder = join(root, `${d.name}-pages`);
      const urls = [...new Set(links.map((l) => l.url))];
      await fetch(`${sandbox.baseUrl}/__sandbox/web-requests`, { method: 'DELETE' });
      const deps = { store, folder, policy, now: Date.now, route, software: 'Skein test' };

      const first = await capturePages(links, deps);
      expect(first).toMatchObject({ total: urls.length, done: urls.length, alreadyCaptured: 0, cancelled: false });
      expect(first.captured + first.failed).toBe(urls.length);
      expect(first.reasons).toMatchObject({ gone: expect.any(Number), refused: expect.any(Number) });

      const rows = await store.outcomes(urls);
      expect(rows.map((r) => r.url).sort()).toEqual([...urls].sort());
      const byUrl = new Map(rows.map((r) => [r.url, r]));
      const at = (k: WebKind) => byUrl.get(`https://news.example/${pathOf(k)}`);
      expect(at('page')).toMatchObject({
        state: 'captured',
        status: 200,
        mime: 'text/html',
        postIds: ['9001', '9002'],
      });
      expect(at('slow')).toMatchObject({ state: 'captured', status: 200 });
      expect(at('moved')).toMatchObject({
        state: 'captured',
        finalUrl: `https://news.example/moved/${pathOf('moved')}`,
      });
      expect(at('gone')).toMatchObject({ state: 'failed', reason: 'gone', status: 404 });
      expect(at('inner')).toMatchObject({ state: 'failed', reason: 'refused' });
      expect(at('inner')?.message).toMatch(/only https/);
      expect(byUrl.get('http://plain.example/story')).toMatchObject({ state: 'failed', reason: 'refused' });
      for (const r of rows) {
        if (r.state === 'captured') {
          expect(r.wacz).toBe(basename(first.wacz as string));
          expect(r.sha256).toMatch(/^[0-9a-f]{64}$/);
          expect(r.offset).toEqual(expect.any(Number));
        } else expect(r.message).toBeTruthy();
      }
      // each page fetched once (a moved page twice: the redirect and where it leads)
      const fetched = (await webLog()).map((r) => r.url);
      expect(new Set(fetched).size).toBe(fetched.length);
      const page = await readFile(first.wacz as string);
      expect(await readdir(folder)).toEqual([basename(first.wacz as string)]);

      // read back by others: Python's zipfile, hashlib and gzip; warcio's parser
      const py = readWithPython(first.wacz as string);
      expect(py.names.sort()).toEqual(
        [
          'archive/data.warc.gz',
          'datapackage-digest.json',
          'datapackage.json',
          'indexes/index.cdx',
          'pages/pages.jsonl',
        ].sort(),
      );
      expect(py.resources).toHaveLength(3);
      for (const r of py.resources) expect(r).toMatchObject({ hashOk: true, bytesOk: true });
      expect(py.digestOk).toBe(true);
      expect(py.stored).toBe(true);
      expect(py.pagesHeader).toMatchObject({ format: 'json-pages-1.0' });
      const captured = rows.filter((r) => r.state === 'captured').map((r) => r.url);
      expect(py.pageUrls.sort()).toEqual([...captured].sort());
      // a page that moved has two response records: the redirect under the link, the page under where it led
      const landed = rows.filter((r) => r.state === 'captured' && r.finalUrl !== r.url).map((r) => r.finalUrl);
      expect(landed).toContain(`https://news.example/moved/${pathOf('moved')}`);
      for (const u of landed) expect(u).toMatch(/^https:\/\/[^/]+\/moved\//);
      expect(py.records[0]?.type).toBe('warcinfo');
      // each page's response, and its image's beside it (so the page replays whole), each with its request
      const isImage = (u: string | null) => /\/media\/img-\d+\.png$/.test(u ?? '');
      const responses = py.records.filter((r) => r.type === 'response').map((r) => r.target as string);
      expect(responses.filter((u) => !isImage(u)).sort()).toEqual([...captured, ...landed].sort());
      expect(responses.filter(isImage).length).toBe(captured.length);
      const movedAt = (u: string) => py.records.findIndex((r) => r.type === 'response' && r.target === u);
      expect(movedAt(at('moved')?.url as string)).toBeLessThan(movedAt(at('moved')?.finalUrl as string));
      expect(py.records.filter((r) => r.type === 'request')).toHaveLength(responses.length);
      expect(py.cdx.length).toBeGreaterThanOrEqual(responses.length);
      for (const line of py.cdx) expect(line.target).toBe(line.url);
      expect(
        py.cdx
          .filter((l) => l.type === 'response')
          .map((l) => l.url)
          .sort(),
      ).toEqual([...responses].sort());

      const records = await readWithWarcio(page);
      for (const url of captured) {
        const finalUrl = byUrl.get(url)?.finalUrl as string;
        if (finalUrl !== url) {
          // the link's own answer: the redirect, its Location where it led (the web's address, not the sandbox's)
          const redirect = records.find((r) => r.type === 'response' && r.target === url);
          expect(redirect).toMatchObject({ status: 301, location: finalUrl });
          expect(redirect?.payload?.length).toBe(0);
        }
        // the page itself, under where it led
        const response = records.find((r) => r.type === 'response' && r.target === finalUrl);
        const u = new URL(finalUrl);
        const served = webPage(DEFAULT_SEED, u.host, u.pathname.slice(1));
        expect(response?.status).toBe(200);
        expect(response?.payload?.toString('utf8')).toBe(served);
        expect(createHash('sha256').update(served).digest('hex')).toBe(byUrl.get(url)?.sha256);
        // its image, where a browser replaying the page asks for it: the sandbox's PNG
        const src = /<img src="([^"]+)"/.exec(served)?.[1] as string;
        const image = records.find((r) => r.type === 'response' && r.target === new URL(src, finalUrl).href);
        expect(image?.payload?.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      }
      // the row's offset is its response record's, as the index says
      for (const r of rows.filter((x) => x.state === 'captured'))
        expect(py.cdx.find((l) => l.url === r.url && l.type === 'response')).toMatchObject({
          offset: r.offset,
          length: r.length,
        });

      const countRows = async () =>
        Number((await db.get(sql`SELECT COUNT(*) AS n FROM page_captures`))?.n) +
        Number((await db.get(sql`SELECT COUNT(*) AS n FROM page_links`))?.n);
      const rowsBefore = await countRows();
      await fetch(`${sandbox.baseUrl}/__sandbox/web-requests`, { method: 'DELETE' });
      const second = await capturePages(links, deps);
      expect(second).toMatchObject({ captured: 0, alreadyCaptured: first.captured, wacz: null });
      // what failed is tried once more, and still fails: its one row says so, no second row
      expect(second.total).toBe(first.failed);
      expect(await countRows()).toBe(rowsBefore);
      expect((await store.outcomes([`https://news.example/${pathOf('gone')}`]))[0]?.attempts).toBe(2);
      const again = (await webLog()).map((r) => r.url);
      expect(again.some((u) => u.includes(pathOf('page')) || u.includes(pathOf('slow')))).toBe(false);
      expect(await readdir(folder)).toEqual([basename(first.wacz as string)]);
    },
    60_000,
  );

  maybe(
    'a cancelled capture keeps what it finished, and capturing again resumes',
    async () => {
      const db = await d.fresh();
      await migrateParts(db, [PAGES_PART], 0);
      const store = PAGES_PART.open(db, { now: Date.now });
      const folder = join(root, `${d.name}-resume`);
      const urls = [...new Set(links.map((l) => l.url))];
      const ac = new AbortController();
      const deps = { store, folder, policy, now: Date.now, route, software: 'Skein test', concurrency: 1 };
      const cut = await capturePages(links, deps, ac.signal, (p) => {
        if (p.done === 3) ac.abort();
      });
      expect(cut).toMatchObject({ cancelled: true, done: 3 });
      const rest = await capturePages(links, deps);
      expect(rest.alreadyCaptured).toBe(cut.captured);
      expect(rest.done).toBe(rest.total);
      expect((await store.outcomes(urls)).length).toBe(urls.length);
      const files = (await readdir(folder)).sort();
      expect(files.every((f) => f.endsWith('.wacz'))).toBe(true);
      expect(files.length).toBe(cut.captured > 0 ? 2 : 1);
    },
    60_000,
  );

  describe('a capture run’s trusted time', () => {
    const stamped = async (name: string, authorities: string[]) => {
      const db = await d.fresh();
      await migrateParts(db, [PAGES_PART], 0);
      const store = PAGES_PART.open(db, { now: Date.now });
      const folder = join(root, `${d.name}-${name}`);
      const timestamp: TimestampSettings = { authorities, noneReason: NO_AUTHORITY, project: 'study', policy };
      const one = made('9100', `https://stamp.example/${pathOf('page', 'stamp.example')}`);
      const run = await capturePages(one, {
        store,
        folder,
        policy,
        now: Date.now,
        route,
        software: 'Skein test',
        timestamp,
      });
      expect(run.captured).toBe(1);
      return { run, store, folder };
    };
    const missing = opensslMissing();

    maybe(
      `the run's WACZ gets a token from the demo's authority that openssl ts -verify accepts${missing ? ` (openssl skipped: ${missing})` : ''}`,
      async () => {
        const { run, store, folder } = await stamped('stamped', [`${sandbox.baseUrl}/tsa`]);
        const wacz = basename(run.wacz as string);
        expect(run.timestamp).toMatchObject({ authority: `${sandbox.baseUrl}/tsa`, files: 1, reason: null });
        // the manifest names the WACZ by its hash, size and name
        const manifest = await readFile(join(folder, run.timestamp?.manifest as string));
        const bytes = await readFile(run.wacz as string);
        const sha = createHash('sha256').update(bytes).digest('hex');
        expect(manifest.toString('utf8')).toContain(`${sha}  ${bytes.length}  ${wacz}`);
        const token = await readFile(join(folder, run.timestamp?.token as string));
        expect(await checkToken(token, manifest)).toMatchObject({ ok: true, genTime: run.timestamp?.genTime });
        // recorded in the pages part's own table, as kept
        expect(await store.tokens()).toEqual([
          expect.objectContaining({
            manifest: run.timestamp?.manifest,
            token: run.timestamp?.token,
            serial: run.timestamp?.serial,
            tokenSha256: createHash('sha256').update(token).digest('hex'),
          }),
        ]);
        if (missing) return;
        const ca = join(folder, 'ca.pem');
        await writeFile(ca, await (await fetch(`${sandbox.baseUrl}/tsa/certificate.pem`)).text());
        const verify = spawnSync(
          'openssl',
          [
            'ts',
            '-verify',
            '-data',
            join(folder, run.timestamp?.manifest as string),
            '-in',
            join(folder, run.timestamp?.token as string),
            '-CAfile',
            ca,
          ],
          { encoding: 'utf8' },
        );
        expect(verify.stdout + verify.stderr).toMatch(/Verification: OK/);
        expect(verify.status).toBe(0);
      },
      60_000,
    );

    maybe('with no authority set, the run records plainly why no trusted time was asked for', async () => {
      const { run, store } = await stamped('unstamped', []);
      expect(run.timestamp).toMatchObject({ authority: null, token: null, reason: NO_AUTHORITY });
      expect(await store.timestamps()).toEqual([
        expect.objectContaining({ status: 'not-asked', authority: null, reason: NO_AUTHORITY }),
      ]);
      expect(await store.tokens()).toEqual([]);
    });

    maybe('an authority that fails is recorded with its reason, and the fallback is asked', async () => {
      // the sandbox's authority that is down (503)
      const broken = `${sandbox.baseUrl}/tsa-down`;
      const { run, store } = await stamped('fallback', [broken, `${sandbox.baseUrl}/tsa`]);
      expect(run.timestamp).toMatchObject({ authority: `${sandbox.baseUrl}/tsa`, reason: null });
      const attempts = await store.timestamps();
      expect(attempts.map((a) => [a.authority, a.status])).toEqual([
        [broken, 'failed'],
        [`${sandbox.baseUrl}/tsa`, 'granted'],
      ]);
      expect(attempts[0]?.reason).toBe('the authority is unavailable (it answered 503)');
    });
  });
});
