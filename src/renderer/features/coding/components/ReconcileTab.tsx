/**
 * Reconciliation: the items on which coders disagree, their values side by side, and the decided value recorded
 * apart from the coders' values (which stay as they were made).
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { codersQuery, useAdjudicate, useCodebook, useDisagreements } from '../queries';
import { isUnread, type CodeValue } from '../../../../shared/coding/codebook';
import type { Disagreement } from '../../../../shared/ipc/coding';
import { otherKindsWords, valueLabel } from '../keys';
import { useCodingSelection } from '../selection';
import { RevealGate } from './AgreementTab';
import { coderName, ItemCard, Problem } from './parts';

function List() {
  const { codebook, coder, sample } = useCodingSelection();
  const coders = useQuery(codersQuery());
  const book = useCodebook(codebook);
  const [undecided, setUndecided] = useState(true);
  const [offset, setOffset] = useState(0);
  const list = useDisagreements(codebook, sample, coder, true, undecided, offset);
  const decide = useAdjudicate();
  const me = coders.data?.find((c) => c.id === coder);
  /** decides an item's field: a category, or a coder's value taken */
  const take = (d: Disagreement, value: CodeValue) =>
    decide.mutate({
      codebook: codebook!,
      kind: d.kind,
      id: d.id,
      field: d.field,
      value,
      decidedBy: me?.name ?? 'researcher',
    });
  const fields = new Map((book.data?.versions.at(-1)?.definition.fields ?? []).map((f) => [f.key, f]));
  if (list.isError) return <Problem error={list.error} />;
  if (!list.data) return <p className="muted">Finding disagreements…</p>;
  return (
    <>
      <div className="coding-row">
        <p role="status" data-testid="disagreements">
          {list.data.total} {undecided ? 'undecided ' : ''}disagreement{list.data.total === 1 ? '' : 's'}
        </p>
        <label className="coding-radio">
          <input
            type="checkbox"
            checked={undecided}
            onChange={(e) => {
              setUndecided(e.target.checked);
              setOffset(0);
            }}
          />{' '}
          Only undecided
        </label>
        <button
          type="button"
          className="btn btn--small"
          disabled={offset === 0}
          onClick={() => setOffset(Math.max(0, offset - 20))}
        >
          Previous 20
        </button>
        <button
          type="button"
          className="btn btn--small"
          disabled={list.data.nextOffset === null}
          onClick={() => setOffset(list.data.nextOffset ?? offset)}
        >
          Next 20
        </button>
      </div>
      {list.data.otherKinds ? (
        <p className="note" role="note">
          {otherKindsWords(list.data.otherKinds, 'disagreements')}
        </p>
      ) : null}
      <ul className="reconcile__list">
        {list.data.items.map((d) => {
          const field = fields.get(d.field);
          return (
            <li
              key={`${d.kind}:${d.id}:${d.field}`}
              className="reconcile__item"
              aria-label={`${field?.label ?? d.field} of ${d.kind} ${d.id}`}
            >
              <ItemCard item={d} />
              <div className="reconcile__side">
                <h3>{field?.label ?? d.field}</h3>
                <table className="coding-table">
                  <tbody>
                    {d.values.map((v) => (
                      <tr key={v.coder}>
                        <th scope="row">{coderName(coders.data, v.coder)}</th>
                        <td>{valueLabel(field, v.value)}</td>
                        <td className="muted">v{v.version}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                <p>
                  Decided:{' '}
                  <strong data-testid="decided">
                    {d.adjudication
                      ? `${valueLabel(field, d.adjudication.value)} (by ${d.adjudication.decidedBy})`
                      : 'not yet'}
                  </strong>
                </p>
                {field && field.categories.length && !field.multiple ? (
                  <div className="coding-field__choices" role="group" aria-label="Decide">
                    {field.categories.map((c) => (
                      <button
                        key={c.value}
                        type="button"
                        className={`coding-choice${d.adjudication?.value === c.value ? ' coding-choice--on' : ''}`}
                        aria-pressed={d.adjudication?.value === c.value}
                        onClick={() => take(d, c.value)}
                      >
                        {c.label}
                      </button>
                    ))}
                  </div>
                ) : (
                  <div className="coding-field__choices" role="group" aria-label="Decide">
                    {d.values.map(({ coder, value }) =>
                      // a value this Skein cannot read is not taken: it could not be checked against the field
                      isUnread(value) ? null : (
                        <button key={coder} type="button" className="coding-choice" onClick={() => take(d, value)}>
                          Take {coderName(coders.data, coder)}’s
                        </button>
                      ),
                    )}
                  </div>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      {list.data.total === 0 ? (
        <p className="muted">Nothing to reconcile{undecided ? ' (every disagreement is decided)' : ''}.</p>
      ) : null}
      <Problem error={decide.error} />
    </>
  );
}

export function ReconcileTab() {
  const { codebook } = useCodingSelection();
  if (codebook === null) return <p className="coding__empty">Write a codebook and code a sample first.</p>;
  return (
    <RevealGate what="the disagreements">
      <List />
    </RevealGate>
  );
}
