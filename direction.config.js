// @ts-check
/**
 * The house's floors, named once (ARCHITECTURE.md draws them): which files make each floor, and which floors
 * its files may import. eslint.config.js turns this table into eslint-plugin-boundaries' rule, so every import
 * in src/ is checked on every lint (`npm test`); `npm run cycles` checks that no import goes round in a circle.
 *
 * Imports run one way: shared ← the core's ground floor ← core areas ← core/index (and its compose/ helpers) ←
 * shells; in the renderer lib, components, state ← features ← app. An import into another core area goes to
 * that area's `index.ts`, its public surface; tests and testing/ helpers may import anything.
 */

/**
 * A core area: one folder under src/core that owns a part of what createCore builds, and its IPC handlers. Its face
 * is `index.ts`. Two more let a worker thread load less than the whole area: an area that keeps tables in the
 * project has `tables/part.ts` (the part alone: the archive's worker hosts every area's tables, and would otherwise
 * load their network, timestamp, WARC and XML libraries, ~20 MB of its memory), and an area whose worker's entry is
 * the composition's has `worker.ts` (what that entry needs, without main's side of the area).
 */
const area = (name) => ({
  name: `core-${name}`,
  files: [`src/core/${name}/**`],
  entry: `src/core/${name}/{index.ts,tables/part.ts,worker.ts}`,
});

/**
 * A renderer feature: one folder under src/renderer/features, with its face `index.ts`. It may use shared and
 * the renderer's lib/components/state, and open the features it names; the app and those features import it
 * only through its face, never its queries or components directly.
 */
const feature = (name, opens = []) => ({
  name: `renderer-feature-${name}`,
  files: [`src/renderer/features/${name}/**`],
  entry: `src/renderer/features/${name}/index.ts`,
  may: ['shared', 'renderer-lib', ...opens.map((f) => `renderer-feature-${f}`)],
});

/** The renderer's features, each with the ones it opens: every view offers Export; a few show another's part. */
const FEATURES = [
  feature('archive', ['export', 'watch']),
  feature('article'),
  feature('coding', ['archive']),
  feature('community', ['export']),
  feature('export'),
  feature('home', ['archive']),
  feature('hydrate', ['export']),
  feature('list', ['export']),
  feature('lookup', ['export']),
  feature('people', ['export']),
  feature('post', ['article', 'export']),
  feature('settings'),
  feature('space', ['export']),
  feature('trends', ['export']),
  feature('usage'),
  feature('user', ['export']),
  feature('watch'),
];

/** @type {Array<{ name: string, files: string[], entry?: string, may?: string[] }>} */
export const FLOORS = [
  // the contracts: pure TypeScript and zod, shared by every process
  { name: 'shared', files: ['src/shared/**'] },
  // the core's ground floor: the ports a shell provides, and what every area may use
  {
    name: 'core-ground',
    files: [
      'src/core/ports.ts',
      'src/core/clock.ts',
      'src/core/logger.ts',
      'src/core/files/**',
      'src/core/workers/**',
      'src/core/net/**',
      'src/core/jobs/**',
      'src/core/timestamp/**',
      'src/core/id-table/**',
    ],
    may: ['shared'],
  },
  // the data floor: the executor port (a project file, a team's PostgreSQL), queries written once, parts
  { name: 'core-db', files: ['src/core/db/**'], entry: 'src/core/db/index.ts', may: ['shared', 'core-ground'] },
  // the one page walk under export and watch: caps, the fetch through PageSource, failures, rate limits, journal
  { ...area('walk'), may: ['shared', 'core-ground'] },
  // the core's areas, lowest first; each may use the ones it names (through their index.ts)
  { ...area('api'), may: ['shared', 'core-ground'] },
  { ...area('session'), may: ['shared', 'core-ground', 'core-api'] },
  { ...area('archive'), may: ['shared', 'core-ground', 'core-db'] },
  { ...area('ids'), may: ['shared', 'core-ground'] },
  { ...area('formats'), may: ['shared', 'core-ground'] },
  { ...area('export'), may: ['shared', 'core-ground', 'core-walk', 'core-formats', 'core-ids'] },
  // watchlists: a run walks pages as an export does, with the same walk, journal and page source
  { ...area('watch'), may: ['shared', 'core-ground', 'core-db', 'core-walk'] },
  { ...area('app'), may: ['shared', 'core-ground'] },
  { ...area('bridge'), may: ['shared', 'core-ground'] },
  { ...area('protocol'), may: ['shared', 'core-ground'] },
  // coding keeps its codebooks, coders and values in the project as a part (its tables, written once on the floor);
  // it reaches them, and the archive's items, through its store port, which the composition fits
  { ...area('coding'), may: ['shared', 'core-ground', 'core-db'] },
  // media keeps the photos and videos of collected posts in the project's media folder, its records as a part
  { ...area('media'), may: ['shared', 'core-ground', 'core-db'] },
  // pages keeps the pages collected posts link to, as WARC records in a WACZ, its records as a part
  { ...area('pages'), may: ['shared', 'core-ground', 'core-db'] },
  // createCore and the adapters that wire one area to another's port: the core's composition
  {
    name: 'core-compose',
    files: ['src/core/index.ts', 'src/core/compose/**'],
    may: [
      'shared',
      'core-ground',
      'core-db',
      'core-walk',
      'core-api',
      'core-session',
      'core-archive',
      'core-ids',
      'core-formats',
      'core-export',
      'core-app',
      'core-bridge',
      'core-protocol',
      'core-coding',
      'core-media',
      'core-pages',
      'core-watch',
    ],
  },
  // the demo API server (in a worker); the preload (the bridge, built from the contract)
  { name: 'sandbox', files: ['src/sandbox/**'], may: ['shared', 'core-ground'] },
  { name: 'preload', files: ['src/preload/**'], may: ['shared'] },
  // the shells: each a composition root over createCore (src/core/index.ts, the core's one door)
  {
    name: 'shell-electron',
    files: ['src/shells/electron/**'],
    may: ['shared', 'core-ground', 'core-compose', 'sandbox', 'preload'],
  },
  {
    name: 'shell-web',
    files: ['src/shells/web/**'],
    may: ['shared', 'core-ground', 'core-compose', 'sandbox', 'preload'],
  },
  // the headless runner: a third composition root over createCore, with no window at all
  { name: 'shell-cli', files: ['src/shells/cli/**'], may: ['shared', 'core-ground', 'core-compose', 'sandbox'] },
  // the renderer
  {
    name: 'renderer-lib',
    files: ['src/renderer/lib/**', 'src/renderer/components/**', 'src/renderer/state/**', 'src/renderer/styles/**'],
    may: ['shared'],
  },
  // each feature, with the features it opens (through their index.ts)
  ...FEATURES,
  {
    name: 'renderer-app',
    files: ['src/renderer/app/**', 'src/renderer/*.ts', 'src/renderer/*.tsx'],
    may: ['shared', 'renderer-lib', ...FEATURES.map((f) => f.name)],
  },
];

/** Files whose imports are not checked (they may import anything): tests and the helpers they run on. */
export const UNCHECKED = ['src/**/*.test.ts', 'src/**/*.test.tsx', 'src/**/testing/**'];
