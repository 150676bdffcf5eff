/** The report: bench/results/report.json, and the same metrics as a table (stdout and summary.md). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import type { Metric } from './budgets';

export interface Environment {
  target: string;
  node: string;
  chromium: string;
  cpus: number;
  cpuModel: string;
  memoryGb: number;
  loadAverage: { start: number[]; end: number[] };
  headless: boolean;
  gpu: boolean;
}

export function environment(target: string, chromium: string, loadAtStart: number[]): Environment {
  return {
    target,
    node: process.version,
    chromium,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(totalmem() / 1e9),
    loadAverage: {
      start: loadAtStart.map((l) => Math.round(l * 100) / 100),
      end: loadavg().map((l) => Math.round(l * 100) / 100),
    },
    headless: true,
    gpu: false,
  };
}

const MACHINE_NOTE =
  'Headless Chromium without a GPU on a shared 2-core machine: frame timing is bounded by the machine (see the idle rAF baseline); ' +
  'numbers vary from run to run with the load average.';

function fmt(v: number | null): string {
  if (v === null) return '—';
  if (Number.isInteger(v)) return v.toLocaleString('en-US');
  return v.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

function mark(m: Metric): string {
  return { pass: 'PASS', fail: 'FAIL', info: 'info', skipped: 'skipped' }[m.status];
}

export function table(metrics: readonly Metric[], markdown: boolean): string {
  const rows = metrics.map((m) => [
    m.section,
    m.name,
    `${fmt(m.value)} ${m.unit}`.trim(),
    m.max === undefined ? '' : `≤ ${fmt(m.max)} ${m.unit}${m.tolerance ? ` (±${m.tolerance})` : ''}`,
    mark(m),
    m.note ?? '',
  ]);
  const head = ['section', 'metric', 'measured', 'budget', 'status', 'note'];
  if (markdown) {
    const esc = (s: string) => s.replace(/\|/g, '\\|');
    return [
      `| ${head.join(' | ')} |`,
      `|${head.map(() => '---').join('|')}|`,
      ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`),
    ].join('\n');
  }
  const widths = head.map((h, i) =>
    Math.min(i === 1 ? 72 : i === 5 ? 0 : 40, Math.max(h.length, ...rows.map((r) => r[i]!.length))),
  );
  const line = (r: string[]) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(head), ...rows.map(line)].join('\n');
}

export function writeReport(
  dir: string,
  data: { env: Environment; metrics: Metric[]; details: Record<string, unknown>; durationS: number; notes: string[] },
): { json: string; md: string } {
  mkdirSync(dir, { recursive: true });
  const counts = { pass: 0, fail: 0, info: 0, skipped: 0 };
  for (const m of data.metrics) counts[m.status]++;
  const json = join(dir, 'report.json');
  writeFileSync(
    json,
    `${JSON.stringify({ name: 'skein-bench', at: new Date().toISOString(), environment: data.env, machineNote: MACHINE_NOTE, notes: data.notes, durationS: data.durationS, counts, metrics: data.metrics, details: data.details }, null, 2)}\n`,
  );
  const md = join(dir, 'summary.md');
  const env = data.env;
  writeFileSync(
    md,
    [
      `# Skein bench — ${new Date().toISOString()}`,
      '',
      `Target: ${env.target} · ${env.chromium} · Node ${env.node} · ${env.cpus} × ${env.cpuModel} · ${env.memoryGb} GB`,
      `Load average (1/5/15 min): start ${env.loadAverage.start.join(' / ')}, end ${env.loadAverage.end.join(' / ')} · ${Math.round(data.durationS)} s`,
      '',
      `> ${MACHINE_NOTE}`,
      '',
      `**${counts.pass} pass, ${counts.fail} fail, ${counts.skipped} skipped** (${counts.info} informational)`,
      '',
      table(data.metrics, true),
      '',
      ...(data.notes.length ? ['## Notes', '', ...data.notes.map((n) => `- ${n}`), ''] : []),
    ].join('\n'),
  );
  return { json, md };
}

export { MACHINE_NOTE };
