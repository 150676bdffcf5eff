/** The agreement report as files: a CSV (one row per field, or per category of a multiple-choice field) and in words. */
import { csv } from './tables';
import { readAgreement } from '../../../shared/coding/agreement-reading';
import type { AgreementReport, AgreementRow } from '../../../shared/ipc/coding';

const n = (v: number | null | undefined) => (v === null || v === undefined ? '' : v.toFixed(3));

const AGREEMENT_COLUMNS = [
  'field',
  'category',
  'units',
  'coders',
  'pairable_values',
  'alpha_nominal',
  'alpha_ordinal',
  'alpha_interval',
  'alpha_ci_level',
  'alpha_ci_low',
  'alpha_ci_high',
  'cohen_kappa',
  'fleiss_kappa',
  'fleiss_units',
  'percent_agreement',
] as const;

export function agreementCsv(report: AgreementReport): string {
  const rows = report.rows.map((r) => [
    r.field,
    r.category ?? '',
    r.units,
    r.coders,
    r.values,
    n(r.alpha.nominal),
    n(r.alpha.ordinal),
    n(r.alpha.interval),
    r.interval?.level ?? '',
    n(r.interval?.low),
    n(r.interval?.high),
    n(r.cohenKappa),
    n(r.fleissKappa),
    r.fleissUnits,
    n(r.percent),
  ]);
  return csv([[...AGREEMENT_COLUMNS], ...rows]);
}

function line(r: AgreementRow): string {
  const name = r.category === null ? r.label : `${r.label}: ${r.category}`;
  if (r.units === 0) return `- ${name}: no item was coded by two coders or more.`;
  const alphas = r.levels.map((l) => `${l} α = ${n(r.alpha[l]) || 'undefined (no variation)'}`).join(', ');
  const ci = r.interval ? ` (95 % interval ${n(r.interval.low)} to ${n(r.interval.high)})` : '';
  const kappa = [
    r.cohenKappa !== null ? `Cohen's κ = ${n(r.cohenKappa)}` : '',
    r.fleissKappa !== null ? `Fleiss' κ = ${n(r.fleissKappa)} over ${r.fleissUnits} items` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const figures = `- ${name}: ${alphas}${ci}; ${kappa ? `${kappa}; ` : ''}agreement ${r.percent === null ? '—' : `${(r.percent * 100).toFixed(1)} %`}; ${r.units} items, ${r.coders} coders, ${r.values} values.`;
  // the same words the Agreement tab shows beside the figures
  return `${figures}\n  ${readAgreement(r).sentences.join(' ')}`;
}

export function agreementMarkdown(report: AgreementReport, codebook: string): string {
  return [
    `# Agreement: ${codebook}, version ${report.version}`,
    '',
    `Coders: ${report.coders.map((c) => `${c.name}${c.kind === 'model' ? ' (model)' : ''}`).join(', ') || 'none'}.`,
    `Computed ${new Date(report.computedAt).toISOString()} over the items coded by two coders or more. Intervals: percentile bootstrap over items, ${report.bootstrap.draws} draws, seed ${report.bootstrap.seed}.`,
    '',
    ...report.rows.map(line),
    '',
  ].join('\n');
}
