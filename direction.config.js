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

/** A core area: one folder under src/core that owns a part of what createCore builds, and its IPC handlers. */
const area = (name) => ({ name: `core-${name}`, files: [`src/core/${name}/**`], entry: `src/core/${name}/index.ts` });

/** @type {Array<{ name: string, files: string[], entry?: string, may?: string[] }>} */
export const FLOORS = [
  // the contracts: pure TypeScript and zod, shared by every process
  { name: 'shared', files: ['src/shared/**'] },
  // the core's ground floor: the ports a shell provides, and what every area may use
  {
    name: 'core-ground',
    files: ['src/core/ports.ts', 'src/core/clock.ts', 'src/core/logger.ts', 'src/core/files/**', 'src/core/workers/**'],
    may: ['shared'],
  },
  // the data floor: the executor port (a project file, a team's PostgreSQL), queries written once, parts
  { name: 'core-db', files: ['src/core/db/**'], entry: 'src/core/db/index.ts', may: ['shared', 'core-ground'] },
  // the core's areas, lowest first; each may use the ones it names (through their index.ts)
  { ...area('api'), may: ['shared', 'core-ground'] },
  { ...area('session'), may: ['shared', 'core-ground', 'core-api'] },
  { ...area('archive'), may: ['shared', 'core-ground', 'core-db'] },
  { ...area('ids'), may: ['shared', 'core-ground'] },
  { ...area('formats'), may: ['shared', 'core-ground'] },
  { ...area('export'), may: ['shared', 'core-ground', 'core-formats', 'core-ids'] },
  // watchlists (issue 35): a run is a walk like an export's, so it reuses export's journal and page source
  { ...area('watch'), may: ['shared', 'core-ground', 'core-db', 'core-export'] },
  { ...area('app'), may: ['shared', 'core-ground'] },
  { ...area('bridge'), may: ['shared', 'core-ground'] },
  { ...area('protocol'), may: ['shared', 'core-ground'] },
  // coding keeps its codebooks, coders and values in the project as a part (its tables, written once on the floor);
  // it reaches them, and the archive's items, through its store port, which the composition fits
  { ...area('coding'), may: ['shared', 'core-ground', 'core-db'] },
  // createCore and the adapters that wire one area to another's port: the core's composition
  {
    name: 'core-compose',
    files: ['src/core/index.ts', 'src/core/compose/**'],
    may: [
      'shared',
      'core-ground',
      'core-db',
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
  // the headless runner (issue 35): a third composition root over createCore, with no window at all
  { name: 'shell-cli', files: ['src/shells/cli/**'], may: ['shared', 'core-ground', 'core-compose', 'sandbox'] },
  // the renderer
  {
    name: 'renderer-lib',
    files: ['src/renderer/lib/**', 'src/renderer/components/**', 'src/renderer/state/**', 'src/renderer/styles/**'],
    may: ['shared'],
  },
  { name: 'renderer-feature', files: ['src/renderer/features/**'], may: ['shared', 'renderer-lib'] },
  {
    name: 'renderer-app',
    files: ['src/renderer/app/**', 'src/renderer/*.ts', 'src/renderer/*.tsx'],
    may: ['shared', 'renderer-lib', 'renderer-feature'],
  },
];

/** Files whose imports are not checked (they may import anything): tests and the helpers they run on. */
export const UNCHECKED = ['src/**/*.test.ts', 'src/**/*.test.tsx', 'src/**/testing/**'];
