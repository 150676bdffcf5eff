/**
 * CPU time the hypervisor took from this VM ("steal", Linux `/proc/stat`) over a stretch of the run:
 * on a shared machine frame timings move with it, and the report says how much there was. Null where
 * the kernel does not report it.
 */
import { readFileSync } from 'node:fs';

export interface CpuTimes {
  total: number;
  steal: number;
}

/** `cpu` line of /proc/stat: user nice system idle iowait irq softirq steal … (in clock ticks). */
export function parseProcStat(text: string): CpuTimes | null {
  const line = text.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) return null;
  const fields = line.trim().split(/\s+/).slice(1, 9).map(Number);
  if (fields.length < 8 || fields.some((n) => !Number.isFinite(n))) return null;
  return { total: fields.reduce((a, b) => a + b, 0), steal: fields[7]! };
}

export function cpuTimes(): CpuTimes | null {
  try {
    return parseProcStat(readFileSync('/proc/stat', 'utf8'));
  } catch {
    return null;
  }
}

/** Share (%) of all CPU time between two readings that was stolen, or null. */
export function stealShare(from: CpuTimes | null, to: CpuTimes | null): number | null {
  if (!from || !to || to.total <= from.total) return null;
  return Math.round(((to.steal - from.steal) / (to.total - from.total)) * 1000) / 10;
}
