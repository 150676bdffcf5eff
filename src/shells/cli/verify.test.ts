/**
 * `skein verify`: a project whose collection's media were kept (in demo mode, from the sandbox) verifies clean
 * (exit 0), its timestamp token from the sandbox's authority checked too; a tampered token alone makes the exit
 * non-zero; a flipped byte in one file and another file deleted are each named and the exit is non-zero. The
 * pages its posts link to, captured as a WACZ, are re-hashed too: a flipped byte in the WACZ, and the WACZ
 * deleted, each make the exit non-zero and are named with the pages they hold.
 */
import { readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoCores } from '../../core/testing/demo-cores';
import { runVerify, VERIFY_CHANGED } from './skein';

const cores = demoCores('skein-verify');

describe('skein verify', () => {
  it(
    'exits 0 for a project whose kept media are whole, non-zero for a flipped byte and a deleted file',
    { timeout: 90_000 },
    async () => {
      const dir = cores.folder();
      const project = join(dir, 'study.skein');
      const { core, call } = cores.core(join(dir, 'app'), {
        projectPath: project,
        workers: undefined,
        watches: { start: false },
      });
      const examples = await call<{ profile: { id: string } }>('skein:demo.examples', undefined);
      let cursor: string | null = null;
      for (let page = 0; page < 4; page++) {
        const params: Record<string, string> = { userId: examples.profile.id, ...(cursor ? { cursor } : {}) };
        const answer = await call('skein:api.call', { operation: 'userTimeline', params, callId: `p${page}` });
        cursor = (answer.paging as { nextCursor: string | null } | null)?.nextCursor ?? null;
        if (!cursor) break;
      }
      const collection = await call<{ id: number }>('skein:archive.saveSearch', {
        project: 'demo',
        name: 'With media',
        media: true,
      });
      const kept = await core.media.keep(collection.id);
      // kept now: an estimate finds nothing left to fetch
      expect(await core.media.estimate(collection.id)).toMatchObject({ files: 0, alreadyKept: kept.kept });
      expect(kept.kept).toBeGreaterThanOrEqual(2);
      expect(kept.failed).toBe(0);
      // demo mode asks the sandbox's stand-in authority for trusted time over the run's manifest
      expect(kept.timestamp).toMatchObject({ authority: expect.stringMatching(/\/tsa$/), reason: null });
      const tokenPath = join(await core.media.folder(), kept.timestamp?.token as string);
      const folder = await core.media.folder();
      const captured = await core.pages.capture(collection.id);
      expect(captured.captured).toBeGreaterThanOrEqual(1);
      const wacz = captured.wacz as string;
      await core.dispose();

      const lines: string[] = [];
      const args = ['--project', project, '--data-dir', join(dir, 'runner')];
      /** the runner's verify, its lines (out and err) in `lines` */
      const verify = () => {
        lines.length = 0;
        return runVerify(
          args,
          {},
          (l) => lines.push(l),
          (l) => lines.push(l),
        );
      };
      expect(await verify()).toBe(0);
      expect(lines.at(-1)).toMatch(/^All \d+ kept media files are as kept/);
      expect(lines).toContain('All 1 timestamp token still proves its manifest.');
      expect(lines).toContain(`All 1 file of captured pages (WACZ) is as written (${dirname(wacz)}).`);
      expect(lines).toContain('All 1 timestamp token of captured pages still proves its web archive.');

      // the WACZ of the captured pages: a byte flipped, then the file deleted, each named, each a non-zero exit
      const written = readFileSync(wacz);
      const flipped = Buffer.from(written);
      flipped.writeUInt8((flipped[100] as number) ^ 1, 100);
      writeFileSync(wacz, flipped);
      expect(await verify()).toBe(VERIFY_CHANGED);
      expect(lines).toContain(
        `changed: ${basename(wacz)}, a file of captured pages: its bytes are no longer the ones written`,
      );
      expect(
        lines[
          lines.indexOf(
            `changed: ${basename(wacz)}, a file of captured pages: its bytes are no longer the ones written`,
          ) + 2
        ],
      ).toMatch(/^ {2}holds the page https:\/\//);
      expect(lines).toContain(`1 of 1 files of captured pages (WACZ) changed or went missing (${dirname(wacz)}).`);
      // and the run's token over that WACZ no longer proves it
      expect(
        lines.some((l) =>
          /^timestamp: timestamps\/.*\.tsr, of captured pages .*: 1 of the files it names is no longer kept unchanged$/.test(
            l,
          ),
        ),
      ).toBe(true);
      unlinkSync(wacz);
      expect(await verify()).toBe(VERIFY_CHANGED);
      expect(lines).toContain(
        `missing: ${basename(wacz)}, a file of captured pages: it is no longer in the pages folder`,
      );
      writeFileSync(wacz, written);
      expect(await verify()).toBe(0);

      // the capture run's token changed by one byte, the WACZ as written: a problem, and a non-zero exit
      const pagesToken = join(dirname(wacz), captured.timestamp?.token as string);
      const stamp = readFileSync(pagesToken);
      writeFileSync(pagesToken, Buffer.concat([stamp.subarray(0, -1), Buffer.from([(stamp.at(-1) as number) ^ 1])]));
      expect(await verify()).toBe(VERIFY_CHANGED);
      expect(lines).toContain('1 of 1 timestamp tokens of captured pages no longer prove their web archives.');
      expect(lines).toContain(`All 1 file of captured pages (WACZ) is as written (${dirname(wacz)}).`);
      writeFileSync(pagesToken, stamp);

      // a token changed by one byte, every file as kept: still a problem, and a non-zero exit
      const token = readFileSync(tokenPath);
      writeFileSync(tokenPath, Buffer.concat([token.subarray(0, -1), Buffer.from([(token.at(-1) as number) ^ 1])]));
      expect(await verify()).toBe(VERIFY_CHANGED);
      expect(lines).toContain('1 of 1 timestamp tokens no longer prove their manifests.');
      expect(
        lines.some((l) => /^timestamp: timestamps\/.*\.tsr .*: the token changed after it was kept$/.test(l)),
      ).toBe(true);
      writeFileSync(tokenPath, token);

      const [a, b] = readdirSync(folder, { withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => e.name);
      const bytes = readFileSync(join(folder, a as string));
      bytes.writeUInt8((bytes.at(-1) as number) ^ 1, bytes.length - 1);
      writeFileSync(join(folder, a as string), bytes);
      unlinkSync(join(folder, b as string));
      expect(await verify()).toBe(VERIFY_CHANGED);
      expect(lines).toContain(`missing: ${b}`);
      // each is named with the post it was kept for
      expect(lines[lines.indexOf(`missing: ${b}`) + 1]).toMatch(/^ {2}kept for post \d+ from http/);
      expect(lines.some((l) => l.startsWith(`changed: ${a} `))).toBe(true);
      expect(lines.at(-1)).toMatch(/^2 of \d+ kept media files changed or went missing/);
      // the token is whole again, but the files its manifest names are not
      expect(lines.some((l) => /files it names are no longer kept unchanged$/.test(l))).toBe(true);
    },
  );

  it('refuses a command without a project, and a project that is not there', async () => {
    const errors: string[] = [];
    expect(
      await runVerify(
        [],
        {},
        () => {},
        (l) => errors.push(l),
      ),
    ).toBe(2);
    expect(
      await runVerify(
        ['--project', '/nowhere/at/all.skein'],
        {},
        () => {},
        (l) => errors.push(l),
      ),
    ).toBe(1);
    expect(errors.join('\n')).toMatch(/there is no project at/);
  });
});
