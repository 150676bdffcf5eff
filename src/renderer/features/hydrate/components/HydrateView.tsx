import { navigate } from '../../../lib/navigation';
import { stamp } from '../../../lib/time';
import { Tabs } from '../../../components/Tabs';
import { routes, type LookupKind, type Route } from '../../../lib/routes';
import { useIdLists } from '../queries';
import { ListPanel } from './ListPanel';
import { ReadForm } from './ReadForm';
import './hydrate.css';

type HydrateRoute = Extract<Route, { name: 'hydrate' }>;

/**
 * Hydrate ids: read a shared id list (a .txt, a CSV column, a JSONL field or pasted ids), see what was refused
 * before anything is spent, then hydrate it in the background (an export of the list: batches of 100, a quote,
 * a credit cap, resumable after a restart), and see which ids did not come back and why.
 */
export function HydrateView({ route }: { route: HydrateRoute }) {
  const { kind, list } = route;
  return (
    <div className="view view--hydrate">
      <header className="view__header">
        <h1 tabIndex={-1}>Hydrate ids</h1>
      </header>
      <Tabs<LookupKind>
        label="What the ids are"
        idPrefix="hydrate"
        selected={kind}
        onSelect={(k) => navigate(routes.hydrate(k), { replace: true })}
        tabs={[
          { id: 'posts', label: 'Post ids' },
          { id: 'users', label: 'User ids' },
        ]}
      >
        {list ? (
          <ListPanel key={list} importId={list} kind={kind} />
        ) : (
          <ReadForm key={kind} kind={kind} onRead={(id) => navigate(routes.hydrate(kind, id))} />
        )}
        <KeptLists kind={kind} current={list} />
      </Tabs>
    </div>
  );
}

function KeptLists({ kind, current }: { kind: LookupKind; current: string | null }) {
  const lists = useIdLists();
  const mine = (lists.data ?? []).filter((l) => l.entity === kind);
  if (mine.length === 0) return null;
  return (
    <section className="hydrate-lists" aria-labelledby="hydrate-lists-title">
      <h2 id="hydrate-lists-title">Kept id lists</h2>
      <ul>
        {mine.map((l) => (
          <li key={l.importId}>
            <a href={`#/hydrate/${kind}?list=${l.importId}`} aria-current={l.importId === current ? 'page' : undefined}>
              {l.label}
            </a>{' '}
            <span className="note">
              {l.ids.toLocaleString()} ids · read {stamp(l.createdAt)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
