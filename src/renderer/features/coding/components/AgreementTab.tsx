/**
 * Agreement, shown to a coder only once they choose to see it (Skein records when; their later values are no
 * longer blind): per field Krippendorff's α at the field's levels with its bootstrap interval, Cohen's κ (two
 * coders), Fleiss' κ, percent agreement, and the items and coders behind each. ReCal's CSV of a field.
 */
import { useQuery } from '@tanstack/react-query';
import { readAgreement } from '../../../../shared/coding/agreement-reading';
import { codersQuery, useAgreement, useExport, useReveal } from '../queries';
import { useCodingSelection } from '../selection';
import { fmt, pct, Problem } from './parts';

/** The gate: agreement and the others' values stay hidden until the coder asks for them. */
export function RevealGate({ what, children }: { what: string; children: React.ReactNode }) {
  const { coder } = useCodingSelection();
  const coders = useQuery(codersQuery());
  const reveal = useReveal();
  const me = coders.data?.find((c) => c.id === coder);
  if (coder === null || !me) return <p className="coding__empty">Choose who you are (“Coding as”) first.</p>;
  if (me.revealedAt !== null) return <>{children}</>;
  return (
    <div className="coding-gate">
      <p>
        Coding is blind: {me.name} sees only their own values. Seeing {what} shows the other coders’ values and how you
        agree; Skein records when you chose to, and values you make afterwards are no longer blind.
      </p>
      <button
        type="button"
        className="btn btn--primary"
        disabled={reveal.isPending}
        onClick={() => reveal.mutate(me.id)}
      >
        See {what}
      </button>
      <Problem error={reveal.error} />
    </div>
  );
}

function Report() {
  const { codebook, coder, sample } = useCodingSelection();
  const report = useAgreement(codebook, sample, coder, true);
  const exporter = useExport();
  if (report.isError) return <Problem error={report.error} />;
  if (!report.data) return <p className="muted">Computing…</p>;
  const r = report.data;
  return (
    <>
      <p className="muted">
        Codebook version {r.version}, {sample !== null ? 'this sample' : 'every item'}; coders:{' '}
        {r.coders.map((c) => `${c.name}${c.kind === 'model' ? ' (model)' : ''}`).join(', ') || 'none yet'}. Intervals:
        95 % percentile bootstrap over items, {r.bootstrap.draws} draws, seed {r.bootstrap.seed}.
      </p>
      {/* wider than a small window: it scrolls in its own box, never under the panel's edge */}
      <div className="coding-table-wrap">
        <table className="coding-table" aria-label="Agreement">
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Krippendorff’s α</th>
              <th scope="col">95 % interval</th>
              <th scope="col">Reading</th>
              <th scope="col">Cohen’s κ</th>
              <th scope="col">Fleiss’ κ</th>
              <th scope="col">Agreement</th>
              <th scope="col">Items</th>
              <th scope="col">Coders</th>
            </tr>
          </thead>
          <tbody>
            {r.rows.map((row) => (
              <tr key={`${row.field}:${row.category ?? ''}`} data-field={row.field}>
                <th scope="row">
                  {row.category === null ? row.label : `${row.label}: ${row.category}`}
                  {row.category === null ? (
                    <button
                      type="button"
                      className="btn btn--small coding-table__recal"
                      aria-label={`Export ${row.label} for ReCal`}
                      onClick={() =>
                        exporter.mutate({
                          kind: 'recal',
                          scope: { codebook: codebook!, ...(sample !== null ? { sample } : {}) },
                          field: row.field,
                        })
                      }
                    >
                      ReCal CSV
                    </button>
                  ) : null}
                </th>
                <td data-testid={`alpha-${row.field}${row.category ? `-${row.category}` : ''}`}>
                  {row.levels.map((l) => (
                    <span key={l} className="coding-table__alpha">
                      {l} {fmt(row.alpha[l])}
                    </span>
                  ))}
                </td>
                <td>{row.interval ? `${fmt(row.interval.low)} to ${fmt(row.interval.high)}` : '—'}</td>
                <td className="coding-table__reading">{readAgreement(row).short}</td>
                <td data-testid={`kappa-${row.field}${row.category ? `-${row.category}` : ''}`}>
                  {fmt(row.cohenKappa)}
                </td>
                <td>{row.fleissKappa === null ? '—' : `${fmt(row.fleissKappa)} (${row.fleissUnits})`}</td>
                <td>{pct(row.percent)}</td>
                <td>{row.units}</td>
                <td>{row.coders}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {r.rows.every((row) => row.units === 0) ? (
        <p className="muted">No item was coded by two coders yet.</p>
      ) : (
        <section className="coding-reading" aria-label="Agreement in words">
          <h3>In words</h3>
          <ul>
            {r.rows
              .filter((row) => row.units > 0)
              .map((row) => (
                <li key={`${row.field}:${row.category ?? ''}`}>
                  <strong>{row.category === null ? row.label : `${row.label}: ${row.category}`}.</strong>{' '}
                  {readAgreement(row).sentences.join(' ')}
                </li>
              ))}
          </ul>
          <p className="muted">
            These words are the same the shared package’s agreement report carries. The thresholds are a convention
            (Krippendorff’s), not a test: what a study needs depends on what rides on its codes.
          </p>
        </section>
      )}
      {exporter.data ? (
        <p role="status">
          Written to {exporter.data.file}. {exporter.data.note}
        </p>
      ) : null}
      <Problem error={exporter.error} />
    </>
  );
}

export function AgreementTab() {
  const { codebook } = useCodingSelection();
  if (codebook === null) return <p className="coding__empty">Write a codebook and code a sample first.</p>;
  return (
    <RevealGate what="agreement">
      <Report />
    </RevealGate>
  );
}
