/**
 * "This will cost…" before an action that may make many calls (auto-polling
 * a space, loading many pages at once). `useCostConfirm` gives a promise
 * that says whether the user agreed, and the dialog to render:
 *
 *   const { ask, dialog } = useCostConfirm();
 *   if (await ask({ title: 'Load 20 pages?', action: 'Load', estimate })) load();
 *   return <>{dialog}…</>;
 */
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { fullCount } from '../../lib/format';
import type { CostEstimate } from '../../lib/usage/cost-estimate';
import { aboutUsd, formatCredits } from '../../lib/usage/money';
import './cost.css';

export interface CostQuestion {
  title: string;
  /** label of the confirming button ("Start live updates") */
  action: string;
  estimate: CostEstimate;
  /** "per minute" when the cost recurs; absent for a one-off */
  per?: string;
  /** one more sentence of context */
  detail?: string;
}

interface Props {
  question: CostQuestion;
  onAnswer: (yes: boolean) => void;
}

/** A modal dialog stating calls, credits and dollars, with Cancel focused first. */
function CostConfirm({ question, onAnswer }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descId = useId();
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);
  const { estimate, per } = question;
  const suffix = per ? ` ${per}` : '';
  return (
    <dialog
      ref={ref}
      className="cost-confirm"
      aria-labelledby={titleId}
      aria-describedby={descId}
      onCancel={(e) => {
        e.preventDefault();
        onAnswer(false);
      }}
    >
      <h2 id={titleId} className="cost-confirm__title">
        {question.title}
      </h2>
      <div id={descId}>
        <dl className="cost-confirm__numbers">
          <div>
            <dt>Calls</dt>
            <dd>
              {fullCount(estimate.calls)}
              {suffix}
            </dd>
          </div>
          <div>
            <dt>Estimated cost</dt>
            <dd>
              {formatCredits(estimate.credits)} {aboutUsd(estimate.usd)}
              {suffix}
            </dd>
          </div>
        </dl>
        <p className="muted cost-confirm__basis">Worked out from {estimate.basis}, with the price table in Settings.</p>
        {question.detail ? <p>{question.detail}</p> : null}
      </div>
      <div className="cost-confirm__buttons">
        <button type="button" className="btn" autoFocus onClick={() => onAnswer(false)}>
          Cancel
        </button>
        <button type="button" className="btn btn--primary" onClick={() => onAnswer(true)}>
          {question.action}
        </button>
      </div>
    </dialog>
  );
}

interface Pending {
  question: CostQuestion;
  resolve: (yes: boolean) => void;
}

/** Ask before spending: `ask(question)` resolves true when the user agrees. */
export function useCostConfirm(): { ask: (question: CostQuestion) => Promise<boolean>; dialog: ReactNode } {
  const [pending, setPending] = useState<Pending | null>(null);
  const pendingRef = useRef<Pending | null>(null);
  useEffect(() => {
    pendingRef.current = pending;
  }, [pending]);
  // an unanswered question is a no when the asking view goes away
  useEffect(() => () => pendingRef.current?.resolve(false), []);
  const ask = useCallback(
    (question: CostQuestion) =>
      new Promise<boolean>((resolve) => {
        setPending((prev) => {
          prev?.resolve(false);
          return { question, resolve };
        });
      }),
    [],
  );
  const dialog = pending ? (
    <CostConfirm
      question={pending.question}
      onAnswer={(yes) => {
        pending.resolve(yes);
        setPending(null);
      }}
    />
  ) : null;
  return { ask, dialog };
}
