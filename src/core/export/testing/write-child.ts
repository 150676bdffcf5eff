/**
 * A child process for the crash test: writes a JSON export of `count` posts
 * to `target` through the real writer. With `stall`, it stops half-way
 * through the items, says `stalled` on stdout and waits to be killed.
 * Usage: node --import tsx write-child.ts <target> <count> <tag> [stall]
 */
import { planView } from '../views';
import { buildManifest } from '../manifest';
import { formatRegistry } from '../../formats';
import { post } from './memory-source';

const [target, countText, tag, mode] = process.argv.slice(2) as [string, string, string, string | undefined];
const count = Number(countText);
const view = { kind: 'postsByIds' as const, operation: 'postsByIds' as const, params: { tweet_ids: '1' } };
const plan = planView(view);
const json = formatRegistry().get('json');
const manifest = buildManifest({
  context: { appName: 'Skein', appVersion: tag, mode: 'demo', baseUrl: 'http://127.0.0.1:1' },
  now: 0,
  view,
  plan,
  scope: 'all',
  caps: {},
  format: json,
  pages: [],
  stop: null,
  files: [target],
});

const source = {
  async *items() {
    for (let i = 0; i < count; i++) {
      if (mode === 'stall' && i === count / 2) {
        process.stdout.write('stalled\n');
        // a timer keeps the process alive until the parent kills it (a bare
        // pending promise would let Node exit on its own, racing the kill)
        setInterval(() => undefined, 60_000);
        await new Promise(() => undefined);
      }
      yield {
        id: String(i),
        position: 'null',
        raw: JSON.stringify(post(String(10n ** 18n + BigInt(i)), null, { tag })),
      };
    }
  },
};

await json.write({ target, items: source, manifest, plan, options: undefined, csvCells: 'neutralised' });
process.stdout.write('done\n');
