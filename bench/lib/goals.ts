/**
 * The data-work goals as one table, read from the results files the dataset benches and `npm run bench` write
 * (bench/results/*.json): each figure with DuckDB's beside it where there is one, the ratio, the goal and whether
 * it is met. Pure: `bench/goals.ts` runs the benches and prints what this makes of their files.
 */

/** What one bench left in bench/results, by file name (without `.json`); absent when it did not run. */
export type ResultFiles = Partial<Record<string, unknown>>;

export interface GoalRow {
  work: string;
  skein: string;
  duckdb: string;
  ratio: string;
  goal: string;
  /** null: not measured in this run (its bench did not run or wrote no figure) */
  met: boolean | null;
  /** said under the table: what a row's verdict comes from (the budgets that failed, the floor under an export's) */
  note?: string;
}

interface ExportRun {
  count: number;
  format: string;
  itemsMbPerSecond: number;
  peakRssMb: number;
}
interface DuckRun {
  count: number;
  target: string;
  itemsMbPerSecond: number;
  peakRssMb: number;
}
interface FloorRun {
  count: number;
  itemsMbPerSecond: number;
  writtenMbPerSecond: number;
}
interface Metric {
  id: string;
  value: number | null;
  status: string;
}

const FORMATS = ['json', 'jsonl', 'csv', 'parquet'];
const DUCK_TARGET: Record<string, string> = { json: 'json', jsonl: 'json', csv: 'csv', parquet: 'parquet' };
const EXPORT_RATIO = 0.5;
const EXPORT_RSS_MB = 150;
const TIME_OF_DUCKDB = 2;
const HYDRATE_RSS_MB = 300;
const TEAM_CHART_MS = 300;
const TEAM_RSS_MB = 300;
const ARRIVAL_P95_MS = 4;

const obj = (v: unknown): Record<string, unknown> | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const list = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);
const fixed = (v: number | null, digits = 0): string => (v === null ? '—' : v.toFixed(digits));
const all = (checks: Array<boolean | null>): boolean | null =>
  checks.some((c) => c === null) ? null : checks.every(Boolean);
const joined = (values: Array<number | null>, digits = 0) => values.map((v) => fixed(v, digits)).join(' / ');

/** An export's runs at one count: each format's figure, its DuckDB pair (the run before it), the ratio and RSS. */
function exportRows(file: unknown, count: number): GoalRow[] {
  const f = obj(file);
  // the bench runs DuckDB right before each of Skein's runs: the two lists are pairs, index by index
  const ducks = list<DuckRun>(f?.duckdb);
  const runs = list<ExportRun>(f?.results)
    .map((r, i) => ({ r, d: ducks[i] }))
    .filter(({ r, d }) => r.count === count && d?.count === count && d.target === DUCK_TARGET[r.format]);
  const label = count.toLocaleString('en-US');
  const per = FORMATS.map((format) => {
    // with BENCH_REPEAT, the median pair by ratio
    const pairs = runs
      .filter(({ r }) => r.format === format)
      .map(({ r, d }) => ({
        skein: r.itemsMbPerSecond,
        duck: d!.itemsMbPerSecond,
        rss: r.peakRssMb,
        duckRss: d!.peakRssMb,
      }))
      .map((p) => ({ ...p, ratio: p.duck ? p.skein / p.duck : null }))
      .sort((a, b) => (a.ratio ?? 0) - (b.ratio ?? 0));
    return pairs[Math.floor(pairs.length / 2)] ?? null;
  });
  // the least the design does with the same answers, as a share of each format's DuckDB figure: the room the aim leaves
  const floor = list<FloorRun>(f?.floor).find((r) => obj(r) !== null && r.count === count);
  const share = (mbs: unknown) => {
    const v = num(mbs);
    return joined(
      per.map((p) => (v !== null && p?.duck ? v / p.duck : null)),
      2,
    );
  };
  const note = floor
    ? `export ${label}: the floor (the answers made, parsed and each item's text taken out, one thread) is ${share(floor.itemsMbPerSecond)} of DuckDB's; with the texts written once, ${share(floor.writtenMbPerSecond)}`
    : undefined;
  return [
    {
      work: `export ${label} posts, MB of posts/s: ${FORMATS.join(' / ')}`,
      skein: joined(per.map((p) => p?.skein ?? null)),
      duckdb: joined(per.map((p) => p?.duck ?? null)),
      ratio: joined(
        per.map((p) => p?.ratio ?? null),
        2,
      ),
      goal: `≥ ${EXPORT_RATIO} of DuckDB's`,
      met: all(per.map((p) => (p?.ratio == null ? null : p.ratio >= EXPORT_RATIO))),
      ...(note ? { note } : {}),
    },
    {
      work: `  their peak RSS, MB`,
      skein: joined(per.map((p) => p?.rss ?? null)),
      duckdb: joined(per.map((p) => p?.duckRss ?? null)),
      ratio: '',
      goal: `≤ ${EXPORT_RSS_MB} MB`,
      met: all(per.map((p) => (p ? p.rss <= EXPORT_RSS_MB : null))),
    },
  ];
}

function watchRow(sqlite: unknown, postgres: unknown): GoalRow {
  const stores = [obj(sqlite), obj(postgres)];
  const seconds = (r: Record<string, unknown> | null, who: string) => num(obj(r?.[who])?.seconds);
  const ratios = stores.map((r) => {
    const s = seconds(r, 'skein');
    const d = seconds(r, 'duckdb');
    return s !== null && d ? s / d : null;
  });
  return {
    work: 'watch deltas table: SQLite / PostgreSQL, s',
    skein: joined(
      stores.map((r) => seconds(r, 'skein')),
      2,
    ),
    duckdb: joined(
      stores.map((r) => seconds(r, 'duckdb')),
      2,
    ),
    ratio: ratios.map((r) => (r === null ? '—' : `${r.toFixed(1)}×`)).join(' / '),
    goal: `≤ ${TIME_OF_DUCKDB}× DuckDB's time`,
    met: all(ratios.map((r) => (r === null ? null : r <= TIME_OF_DUCKDB))),
  };
}

function codingRow(file: unknown): GoalRow {
  const draw = obj(obj(file)?.drawMs);
  const median = (v: unknown) => {
    const xs = list<number>(v).filter((x) => typeof x === 'number');
    return xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]! : null;
  };
  const ratio = num(draw?.ratio);
  return {
    work: 'stratified sample of 1,000 from 100k posts, median draw ms',
    skein: fixed(median(draw?.skein), 1),
    duckdb: fixed(median(draw?.duckdb), 1),
    ratio: ratio === null ? '—' : `${ratio.toFixed(2)}×`,
    goal: `≤ ${TIME_OF_DUCKDB}× DuckDB's time`,
    met: ratio === null ? null : ratio <= TIME_OF_DUCKDB,
  };
}

function hydrateRow(file: unknown): GoalRow {
  const runs = list<{ count: number; peakRssMb: number }>(obj(file)?.runs);
  const at = (count: number) => runs.find((r) => r.count === count)?.peakRssMb ?? null;
  const small = at(100_000);
  const big = at(1_000_000);
  return {
    work: 'hydrate 100k / 1M ids, peak RSS MB',
    skein: joined([small, big]),
    duckdb: '',
    ratio: '',
    goal: `≤ ${HYDRATE_RSS_MB} MB at both`,
    met: big === null || small === null ? null : big <= HYDRATE_RSS_MB && small <= HYDRATE_RSS_MB,
  };
}

function teamRow(file: unknown): GoalRow {
  const f = obj(file);
  const posts = num(f?.posts);
  const chart = num(f?.activityMs);
  const rss = num(f?.peakRssMb);
  return {
    work: `team project (PostgreSQL), ${posts === null ? '?' : posts.toLocaleString('en-US')} posts: chart ms; RSS ingesting MB`,
    skein: `${fixed(chart, 1)}; ${fixed(rss)}`,
    duckdb: '',
    ratio: '',
    goal: `≤ ${TEAM_CHART_MS} ms; ≤ ${TEAM_RSS_MB} MB`,
    met: chart === null || rss === null ? null : chart <= TEAM_CHART_MS && rss <= TEAM_RSS_MB,
  };
}

/** `npm run bench`'s report: the page arriving, and whether every budget it checked held. */
function appRows(file: unknown, label: string): GoalRow[] {
  const metrics = list<Metric>(obj(file)?.metrics);
  if (metrics.length === 0)
    return [{ work: `npm run bench${label}`, skein: '—', duckdb: '', ratio: '', goal: '', met: null }];
  const arrival = metrics.find((m) => m.id === 'data.renderer.arrival.p95');
  const floorMs = num(metrics.find((m) => m.id === 'data.renderer.floor.p95')?.value);
  const failed = metrics.filter((m) => m.status === 'fail').map((m) => m.id);
  const passed = metrics.filter((m) => m.status === 'pass').length;
  const rows: GoalRow[] = [];
  if (arrival)
    rows.push({
      work: `a page arriving, renderer CPU p95 ms${label}`,
      skein: fixed(arrival.value, 2),
      duckdb: '',
      ratio: '',
      goal: `≤ ${ARRIVAL_P95_MS} ms`,
      met: arrival.value === null ? null : arrival.value <= ARRIVAL_P95_MS,
      ...(floorMs !== null
        ? {
            note: `a page arriving${label}: the browser alone spends ${fixed(floorMs, 2)} ms (p95) on the least a page changes, before React commits anything`,
          }
        : {}),
    });
  rows.push({
    work: `npm run bench${label}: budgets passed`,
    skein: `${passed} of ${passed + failed.length}`,
    duckdb: '',
    ratio: '',
    goal: 'every budget',
    met: failed.length === 0,
    ...(failed.length > 0 ? { note: `npm run bench${label} failed ${failed.join(', ')}` } : {}),
  });
  return rows;
}

/** The table of every goal, from the results files present. */
export function goalRows(files: ResultFiles): GoalRow[] {
  return [
    ...exportRows(files.export, 100_000),
    ...exportRows(files.export, 1_000_000),
    watchRow(files.watch, files['watch-postgres']),
    codingRow(files.coding),
    hydrateRow(files.hydrate),
    teamRow(files['archive-postgres']),
    ...appRows(files.report, ''),
    ...appRows(files['report-slowed'], ', renderer slowed 2.5×'),
  ];
}

/** The table as text, columns padded, and a last line counting what is met. */
export function formatGoals(rows: readonly GoalRow[]): string {
  const head: GoalRow = { work: 'work', skein: 'Skein', duckdb: 'DuckDB', ratio: 'ratio', goal: 'goal', met: null };
  const cells = (r: GoalRow, status: string) => [r.work, r.skein, r.duckdb, r.ratio, r.goal, status];
  const table = [
    cells(head, 'status'),
    ...rows.map((r) => cells(r, r.met === null ? 'not run' : r.met ? 'MET' : 'NOT MET')),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((t) => t[i]!.length)));
  const lines = table.map((t) =>
    t
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd(),
  );
  const met = rows.filter((r) => r.met === true).length;
  const notMet = rows.filter((r) => r.met === false).length;
  const notRun = rows.filter((r) => r.met === null).length;
  const notes = rows.flatMap((r) => (r.note ? [r.note] : []));
  const under = notes.length > 0 ? `\n\n${notes.join('\n')}` : '';
  return `${lines.join('\n')}${under}\n\n${met} met, ${notMet} not met, ${notRun} not run`;
}
