/**
 * Checking the files of captured pages (WACZ) a project kept, on a project file and a team's PostgreSQL
 * schema: pages captured from the sandbox's small web verify clean against the hash recorded when each WACZ
 * was written; a flipped byte and a deleted WACZ are each named with the pages they hold. A project made before
 * that hash was recorded is checked against the hashes each WACZ lists inside it, and says so.
 */
import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox as RunningSandbox } from '../../sandbox';
import { DEFAULT_SEED } from '../../sandbox/server';
import { webKind } from '../../sandbox/web';
import { sandboxWebRoute } from '../compose/pages';
import { migrateParts, sql } from '../db';
import { DIALECTS } from '../db/testing/dialects';
import { DEFAULT_FETCH_POLICY, type FetchPolicy } from '../net';
import { capturePages, PAGE_LIMITS, type PageRoute } from './capture';
import { linksOf, type PageLink } from './links';
import { PAGES_PART } from './tables/part';
import { verifyPages } from './verify';

let sandbox: RunningSandbox;
let root: string;
let policy: FetchPolicy;
let route: PageRoute;

/** made-up pages of a host that answer with a page */
const pages = (count: number, host: string): string[] => {
  const out: string[] = [];
  for (let i = 0; out.length < count && i < 1_000; i++)
    if (webKind(DEFAULT_SEED, host, `story-${i}`) === 'page') out.push(`https://${host}/story-${i}`);
  return out;
};
const post = (id: string, urls: readonly string[]): PageLink[] =>
  linksOf({ id, entities: { urls: urls.map((u) => ({ expanded_url: u, url: 'https://t.co/x' })) } });

/** one byte of a file flipped, in its middle (inside the archived pages) */
const flip = async (path: string) => {
  const bytes = await readFile(path);
  const at = Math.floor(bytes.length / 3);
  bytes.writeUInt8((bytes[at] as number) ^ 1, at);
  await writeFile(path, bytes);
};

beforeAll(async () => {
  sandbox = await startSandbox({ size: 'small', now: () => Date.UTC(2026, 10, 1) });
  root = await mkdtemp(join(tmpdir(), 'skein-pages-verify-'));
  policy = { ...DEFAULT_FETCH_POLICY, ...PAGE_LIMITS, trustedOrigins: [new URL(sandbox.baseUrl).origin] };
  route = sandboxWebRoute(sandbox.baseUrl);
}, 60_000);

afterAll(async () => {
  await sandbox.close();
  await rm(root, { recursive: true, force: true });
});

describe.each(DIALECTS)('checking captured pages on $name', (d) => {
  beforeAll(d.setup, 120_000);
  afterAll(d.teardown);
  const maybe = d.skip ? it.skip : it;
  if (d.skip) it.skip(`(${d.skip})`, () => undefined);

  const project = async (name: string) => {
    const db = await d.fresh();
    await migrateParts(db, [PAGES_PART], 0);
    const store = PAGES_PART.open(db, { now: Date.now });
    const folder = join(root, `${d.name}-${name}`);
    const capture = async (links: PageLink[]) => {
      const r = await capturePages(links, { store, folder, policy, now: Date.now, route, software: 'Skein test' });
      expect(r.failed).toBe(0);
      return r.wacz as string;
    };
    return { db, store, folder, capture };
  };

  maybe(
    'each WACZ re-hashed against the hash recorded when it was written: a flipped byte and a deleted file named',
    async () => {
      const { store, folder, capture } = await project('recorded');
      const [a1, a2, b1] = pages(3, 'news.example');
      const first = await capture(post('9001', [a1 as string, a2 as string]));
      const second = await capture(post('9002', [b1 as string]));

      expect(await verifyPages(store, folder)).toEqual({
        checked: 2,
        matched: 2,
        unrecorded: 0,
        problems: [],
        folder,
      });

      await flip(first);
      await unlink(second);
      const seen: Array<[number, number]> = [];
      const report = await verifyPages(store, folder, (c, t) => seen.push([c, t]));
      expect(seen).toEqual([
        [1, 2],
        [2, 2],
      ]);
      expect(report).toMatchObject({ checked: 2, matched: 0, unrecorded: 0 });
      const byName = new Map(report.problems.map((p) => [p.name, p]));
      expect(byName.get(basename(first))).toMatchObject({
        state: 'changed',
        expected: expect.stringMatching(/^[0-9a-f]{64}$/),
        found: expect.stringMatching(/^[0-9a-f]{64}$/),
        problem: 'its bytes are no longer the ones written',
        pages: 2,
        urls: [a1, a2].sort(),
      });
      expect(byName.get(basename(first))?.found).not.toBe(byName.get(basename(first))?.expected);
      expect(byName.get(basename(second))).toMatchObject({
        state: 'missing',
        found: null,
        problem: 'it is no longer in the pages folder',
        pages: 1,
        urls: [b1],
      });
    },
    60_000,
  );

  maybe(
    'a project made before the hash was recorded: each WACZ checked against the hashes it lists inside, and said so',
    async () => {
      const { db, store, folder, capture } = await project('older');
      const [a1, b1] = pages(2, 'blog.example');
      const first = await capture(post('9101', [a1 as string]));
      const second = await capture(post('9102', [b1 as string]));
      // what a project written by the previous version holds: captures, and no hash of the whole file
      await db.run(sql`DELETE FROM page_waczs`);

      expect(await verifyPages(store, folder)).toEqual({
        checked: 2,
        matched: 2,
        unrecorded: 2,
        problems: [],
        folder,
      });

      await flip(first);
      await unlink(second);
      const report = await verifyPages(store, folder);
      expect(report).toMatchObject({ checked: 2, matched: 0, unrecorded: 2 });
      const byName = new Map(report.problems.map((p) => [p.name, p]));
      expect(byName.get(basename(first))).toMatchObject({ state: 'changed', expected: null, urls: [a1] });
      expect(byName.get(basename(first))?.problem).toBe(
        "the hashes listed inside it no longer hold for its archived pages (it was written before Skein recorded a whole file's hash)",
      );
      expect(byName.get(basename(second))).toMatchObject({ state: 'missing', expected: null, urls: [b1] });
    },
    60_000,
  );
});
