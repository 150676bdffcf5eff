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
import type { TimestampSettings } from '../timestamp';
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
    const capture = async (links: PageLink[], timestamp?: TimestampSettings) => {
      const r = await capturePages(links, {
        store,
        folder,
        policy,
        now: Date.now,
        route,
        software: 'Skein test',
        ...(timestamp ? { timestamp } : {}),
      });
      expect(r.failed).toBe(0);
      return r;
    };
    return {
      db,
      store,
      folder,
      capture: async (links: PageLink[]) => (await capture(links)).wacz as string,
      stamped: capture,
    };
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
        tokens: 0,
        tokenProblems: [],
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
        tokens: 0,
        tokenProblems: [],
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

  maybe(
    'each capture run’s token checked again: a flipped byte in its WACZ and a changed token are each a token problem',
    async () => {
      const { store, folder, stamped } = await project('stamped');
      const authority = `${sandbox.baseUrl}/tsa`;
      const timestamp: TimestampSettings = { authorities: [authority], noneReason: '', project: 'study', policy };
      const [a1, b1] = pages(2, 'stamp.example');
      const first = await stamped(post('9201', [a1 as string]), timestamp);
      await stamped(post('9202', [b1 as string]), timestamp);
      expect(first.timestamp?.token).toBeTruthy();
      expect(await verifyPages(store, folder)).toMatchObject({ checked: 2, matched: 2, tokens: 2, tokenProblems: [] });

      // one byte of the first WACZ flipped: its token no longer proves it, the second's still does
      const wacz = first.wacz as string;
      const written = await readFile(wacz);
      await flip(wacz);
      const changed = await verifyPages(store, folder);
      expect(changed).toMatchObject({ checked: 2, matched: 1, tokens: 2 });
      expect(changed.tokenProblems).toEqual([
        {
          manifest: first.timestamp?.manifest,
          token: first.timestamp?.token,
          authority,
          genTime: first.timestamp?.genTime,
          problem: '1 of the files it names is no longer kept unchanged',
        },
      ]);
      await writeFile(wacz, written);

      // the token itself changed by one byte, the WACZ as written
      const tokenPath = join(folder, first.timestamp?.token as string);
      const token = await readFile(tokenPath);
      token.writeUInt8((token.at(-1) as number) ^ 1, token.length - 1);
      await writeFile(tokenPath, token);
      const retoken = await verifyPages(store, folder);
      expect(retoken).toMatchObject({ checked: 2, matched: 2, tokens: 2 });
      expect(retoken.tokenProblems.map((p) => p.problem)).toEqual(['the token changed after it was kept']);

      // and its manifest gone
      await unlink(join(folder, first.timestamp?.manifest as string));
      expect((await verifyPages(store, folder)).tokenProblems.map((p) => p.problem)).toEqual([
        'its manifest is missing',
      ]);
    },
    60_000,
  );
});
