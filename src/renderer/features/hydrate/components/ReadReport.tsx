import type { ImportReport } from '../../../../shared/ipc/ids';

const SHOWN = 50;

/** What reading a list refused (with line and why), repeated or skipped. */
export function ReadReport({ report }: { report: ImportReport }) {
  const refused = [...report.damaged.map((r) => ({ ...r, damaged: true })), ...report.invalid].sort(
    (a, b) => a.line - b.line,
  );
  const refusedTotal = report.damagedTotal + report.invalidTotal;
  return (
    <div className="hydrate-report">
      <p>
        {report.lines.toLocaleString()} lines read · {report.duplicates.toLocaleString()} repeated ·{' '}
        {report.blank.toLocaleString()} blank · {refusedTotal.toLocaleString()} refused
        {report.handles ? ` · ${report.handles.toLocaleString()} @handles` : ''}
      </p>
      {report.damagedTotal > 0 ? (
        <p role="alert">
          {report.damagedTotal === 1 ? 'One id was' : `${report.damagedTotal.toLocaleString()} ids were`} damaged by a
          spreadsheet and will not be asked for: open the file with the id column as text and read it again.
        </p>
      ) : null}
      {refused.length > 0 ? (
        <details>
          <summary>
            Refused ({refusedTotal > refused.length ? `first ${refused.length} of ${refusedTotal}` : refused.length})
          </summary>
          <table className="hydrate-table">
            <thead>
              <tr>
                <th scope="col">Line</th>
                <th scope="col">As written</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {refused.slice(0, SHOWN).map((r) => (
                <tr key={`${r.line}-${r.token}`}>
                  <td>{r.line}</td>
                  <td>
                    <code>{r.token}</code>
                  </td>
                  <td>{r.why}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {refused.length > SHOWN ? <p className="note">…and {refused.length - SHOWN} more.</p> : null}
        </details>
      ) : null}
    </div>
  );
}
