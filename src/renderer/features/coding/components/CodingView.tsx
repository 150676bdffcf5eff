/**
 * The coding workbench: which codebook, who is coding and which sample, over tabs — code by keyboard,
 * the codebook, coders (people and models), samples, agreement, reconciliation, and files (exports, imports,
 * the share package). Nothing here calls the API: it all works on the project of the mode Skein is in.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import type { Route } from '../../../lib/routes';
import { navigate } from '../../../lib/navigation';
import { routes, type CodingTab } from '../../../lib/routes';
import { Tabs, type TabSpec } from '../../../components/Tabs';
import { ViewFrame } from '../../../components/ViewFrame';
import { codebooksQuery, useSamples } from '../queries';
import { useCodingSelection } from '../selection';
import { AgreementTab } from './AgreementTab';
import { CodebookTab } from './CodebookTab';
import { CodersTab } from './CodersTab';
import { CodingAs } from './CoderHere';
import { CodeTab } from './CodeTab';
import { FilesTab } from './FilesTab';
import { ReconcileTab } from './ReconcileTab';
import { SamplesTab } from './SamplesTab';
import { StepGuide } from './StepGuide';
import './coding.css';

type CodingRoute = Extract<Route, { name: 'coding' }>;

const TABS: ReadonlyArray<TabSpec<CodingTab>> = [
  { id: 'code', label: 'Code' },
  { id: 'codebook', label: 'Codebook' },
  { id: 'coders', label: 'Coders' },
  { id: 'samples', label: 'Samples' },
  { id: 'agreement', label: 'Agreement' },
  { id: 'reconcile', label: 'Reconcile' },
  { id: 'files', label: 'Files' },
];

/** Codebook, coder and sample pickers: the workbench's place. */
function Selectors() {
  const books = useQuery(codebooksQuery());
  const { codebook, sample, chooseCodebook, chooseSample } = useCodingSelection();
  const samples = useSamples(codebook);
  const ids = { book: useId(), sample: useId() };
  // a selection the project no longer has (another project, a new demo) is dropped; the first one is taken
  useEffect(() => {
    if (!books.data) return;
    if (codebook !== null && !books.data.some((b) => b.id === codebook)) chooseCodebook(books.data[0]?.id ?? null);
    else if (codebook === null && books.data[0]) chooseCodebook(books.data[0].id);
  }, [books.data, codebook, chooseCodebook]);
  useEffect(() => {
    if (!samples.data) return;
    if (sample !== null && !samples.data.some((s) => s.id === sample)) chooseSample(samples.data[0]?.id ?? null);
    else if (sample === null && samples.data[0]) chooseSample(samples.data[0].id);
  }, [samples.data, sample, chooseSample]);
  return (
    <div className="coding-selectors">
      <label className="coding-selector" htmlFor={ids.book}>
        <span>Codebook</span>
        <select
          id={ids.book}
          className="select"
          value={codebook ?? ''}
          onChange={(e) => chooseCodebook(e.target.value ? Number(e.target.value) : null)}
        >
          {books.data?.length ? null : <option value="">none yet</option>}
          {books.data?.map((b) => (
            <option key={b.id} value={b.id}>
              {b.name} (v{b.version})
            </option>
          ))}
        </select>
      </label>
      <CodingAs />
      <label className="coding-selector" htmlFor={ids.sample}>
        <span>Sample</span>
        <select
          id={ids.sample}
          className="select"
          value={sample ?? ''}
          onChange={(e) => chooseSample(e.target.value ? Number(e.target.value) : null)}
        >
          {samples.data?.length ? null : <option value="">none yet</option>}
          {samples.data?.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name} ({s.items})
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

export function CodingView({ route }: { route: CodingRoute }) {
  return (
    <ViewFrame title="Coding" className="view--coding">
      <div className="coding">
        <Selectors />
        <StepGuide tab={route.tab} />
        <Tabs
          label="Coding"
          tabs={TABS}
          selected={route.tab}
          onSelect={(t) => navigate(routes.coding(t), { replace: true })}
          idPrefix="coding"
        >
          <div className="coding__panel">
            {route.tab === 'code' ? <CodeTab /> : null}
            {route.tab === 'codebook' ? <CodebookTab /> : null}
            {route.tab === 'coders' ? <CodersTab /> : null}
            {route.tab === 'samples' ? <SamplesTab /> : null}
            {route.tab === 'agreement' ? <AgreementTab /> : null}
            {route.tab === 'reconcile' ? <ReconcileTab /> : null}
            {route.tab === 'files' ? <FilesTab share={route.share} /> : null}
          </div>
        </Tabs>
      </div>
    </ViewFrame>
  );
}
