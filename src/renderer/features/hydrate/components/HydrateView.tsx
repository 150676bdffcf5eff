import { navigate } from '../../../lib/navigation';
import { stamp } from '../../../lib/time';
import { Tabs } from '../../../components/Tabs';
import { routes, type LookupKind, type Route } from '../../../lib/routes';
import type { UnreadIdList } from '../../../../shared/ipc/ids';
import { useIdLists, useUnreadIdLists } from '../queries';
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
  const unread = useUnreadIdLists();
  const mine = (lists.data ?? []).filter((l) => l.entity === kind);
  const others = unread.data?.lists ?? [];
  if (mine.length === 0 && others.length === 0) return null;
  return (
    <section className="hydrate-lists" aria-labelledby="hydrate-lists-title">
      <h2 id="hydrate-lists-title">Kept id lists</h2>
      {others.length > 0 && unread.data ? <UnreadLists folder={unread.data.folder} lists={others} /> : null}
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

/**
 * Lists kept here that this Skein cannot read (a newer Skein's, after going back to this one, or damaged): said,
 * with where they are, rather than left out without a word. Nothing here opens or deletes them.
 */
function UnreadLists({ folder, lists }: { folder: string; lists: readonly UnreadIdList[] }) {
  const many = lists.length > 1;
  return (
    <div className="hydrate-lists__unread" role="note" aria-label="Id lists this Skein cannot read">
      <p className="note">
        {many ? `${lists.length} id lists were` : 'An id list was'} kept by a newer Skein, or {many ? 'are' : 'is'}{' '}
        damaged: this Skein cannot read {many ? 'them' : 'it'}, and leaves {many ? 'them' : 'it'} as{' '}
        {many ? 'they are' : 'it is'} in <span className="hydrate-lists__path">{folder}</span>.
      </p>
      <ul>
        {lists.map((l) => (
          <li key={l.importId}>
            {l.label ?? 'A list this Skein cannot name'}{' '}
            <span className="note">
              {l.createdAt === null ? '' : `read ${stamp(l.createdAt)} · `}
              {l.importId}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
