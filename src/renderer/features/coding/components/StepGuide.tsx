/**
 * The way through a coding project, on the coding screen: codebook → coders → sample → code → agreement →
 * reconcile → share, each step done, current or to do from what the project holds, each a link to its tab.
 */
import { useQuery } from '@tanstack/react-query';
import type { CodingTab } from '../../../lib/routes';
import { formatRoute, routes } from '../../../lib/routes';
import { guideSteps, type StepState } from '../guide';
import { citationQuery, codebooksQuery, codersQuery, useDisagreements, useSamples } from '../queries';
import { useCodingSelection } from '../selection';

const STATE_WORDS: Record<StepState, string> = { done: 'done', current: 'next', todo: 'to do' };

export function StepGuide({ tab }: { tab: CodingTab }) {
  const { codebook, coder, sample } = useCodingSelection();
  const books = useQuery(codebooksQuery());
  const coders = useQuery(codersQuery());
  const samples = useSamples(codebook);
  const citation = useQuery(citationQuery());
  const revealed = coders.data?.find((c) => c.id === coder)?.revealedAt != null;
  const undecided = useDisagreements(codebook, sample, coder, revealed, true, 0);
  const steps = guideSteps({
    codebooks: books.data?.length ?? 0,
    coders: coders.data?.length ?? 0,
    progress: samples.data?.find((s) => s.id === sample)?.progress ?? null,
    revealed,
    undecided: revealed ? (undecided.data?.total ?? null) : null,
    shared: !!citation.data,
  });
  return (
    <nav className="coding-guide" aria-label="Coding steps">
      <ol>
        {steps.map((s, i) => (
          <li key={s.id} className={`coding-guide__step coding-guide__step--${s.state}`}>
            <a href={formatRoute(routes.coding(s.tab))} aria-current={s.tab === tab ? 'step' : undefined}>
              <span className="coding-guide__n" aria-hidden="true">
                {s.state === 'done' ? '✓' : i + 1}
              </span>{' '}
              {s.label} <span className="coding-guide__state">{STATE_WORDS[s.state]}</span>
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}
