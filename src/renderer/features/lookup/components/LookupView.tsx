import { useQueryClient } from '@tanstack/react-query';
import { useState, type DragEvent } from 'react';
import { navigate } from '../../../lib/navigation';
import { Tabs } from '../../../components/Tabs';
import { creditsLabel } from '../../../lib/format';
import { parseIdList } from '../../../lib/id-list';
import { usePrices } from '../../../lib/settings';
import { estimatePages } from '../../../lib/usage/cost-estimate';
import { handleQuery } from '../../../lib/lookups';
import { routes, type LookupKind, type Route } from '../../../lib/routes';
import { LookupResults } from './LookupResults';
import './lookup.css';

type LookupRoute = Extract<Route, { name: 'lookup' }>;

const TEXT = {
  posts: {
    label: 'Post ids or post URLs',
    placeholder: '1850000000000000001, 1850000000000000002\nhttps://x.com/someone/status/1850000000000000003',
  },
  users: { label: 'User ids, @handles or profile URLs', placeholder: '44196397\n@someone, https://x.com/someone_else' },
} as const;

/** Paste or drop a list of ids; it is looked up in batches of 100, found vs not found. */
export function LookupView({ route }: { route: LookupRoute }) {
  const { kind } = route;
  return (
    <div className="view view--lookup">
      <header className="view__header">
        <h1 tabIndex={-1}>Look up ids</h1>
      </header>
      <Tabs<LookupKind>
        label="What to look up"
        idPrefix="lookup"
        selected={kind}
        onSelect={(k) => navigate(routes.lookup(k), { replace: true })}
        tabs={[
          { id: 'posts', label: 'Posts' },
          { id: 'users', label: 'Users' },
        ]}
      >
        {/* keyed by kind only: what was typed (and refused) stays in the box after a lookup */}
        <LookupForm key={kind} kind={kind} initial={route.ids} />
        {route.ids ? <LookupResults kind={kind} ids={parseIdList(route.ids, kind).ids} /> : null}
      </Tabs>
    </div>
  );
}

function LookupForm({ kind, initial }: { kind: LookupKind; initial: string }) {
  const [text, setText] = useState(initial.split(',').join('\n'));
  const [dragging, setDragging] = useState(false);
  const [resolving, setResolving] = useState<{ done: number; of: number } | null>(null);
  const [unresolved, setUnresolved] = useState<Array<{ handle: string; why: string }>>([]);
  const client = useQueryClient();
  const prices = usePrices();
  const parsed = parseIdList(text, kind);
  const handleCost = parsed.handles.length ? estimatePages('userSearch', parsed.handles.length, prices) : null;
  const submit = async () => {
    const ids = [...parsed.ids];
    const missed: Array<{ handle: string; why: string }> = [];
    setResolving({ done: 0, of: parsed.handles.length });
    for (const [i, handle] of parsed.handles.entries()) {
      try {
        const found = await client.fetchQuery(handleQuery(handle));
        if (found.user && !ids.includes(found.user.id)) ids.push(found.user.id);
        if (!found.user) missed.push({ handle, why: 'no account has exactly this handle' });
      } catch (e) {
        missed.push({ handle, why: e instanceof Error ? e.message : 'could not be resolved' });
      }
      setResolving({ done: i + 1, of: parsed.handles.length });
    }
    setResolving(null);
    setUnresolved(missed);
    if (ids.length) navigate(routes.lookup(kind, ids.join(',')));
  };
  const onDrop = async (e: DragEvent<HTMLTextAreaElement>) => {
    e.preventDefault();
    setDragging(false);
    const file = e.dataTransfer.files[0];
    const dropped = file ? await file.text() : e.dataTransfer.getData('text/plain');
    if (dropped) setText((t) => (t.trim() ? `${t.trim()}\n${dropped}` : dropped));
  };
  return (
    <form
      className="lookup-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (parsed.ids.length || parsed.handles.length) void submit();
      }}
    >
      <label className="field">
        <span>{TEXT[kind].label}</span>
        <textarea
          className={`textarea${dragging ? ' textarea--drop' : ''}`}
          value={text}
          placeholder={TEXT[kind].placeholder}
          onChange={(e) => setText(e.target.value)}
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(e) => void onDrop(e)}
          spellCheck={false}
          aria-describedby="lookup-hint"
        />
      </label>
      <p id="lookup-hint" className="note">
        Separate with commas, spaces or new lines, or drop a text file. {parsed.ids.length}{' '}
        {parsed.ids.length === 1 ? 'id' : 'ids'} read
        {parsed.handles.length
          ? `, ${parsed.handles.length} ${parsed.handles.length === 1 ? 'handle' : 'handles'} to resolve`
          : ''}
        {parsed.ids.length > 100 ? ` (${Math.ceil(parsed.ids.length / 100)} calls of up to 100)` : ''}
        {parsed.repeated ? `, ${parsed.repeated} repeated` : ''}
        {parsed.invalid.length
          ? `, ${parsed.invalid.length} not readable: ${parsed.invalid.slice(0, 5).join(' ')}${parsed.invalid.length > 5 ? ' …' : ''}`
          : ''}
        .
      </p>
      {handleCost ? (
        <p className="note" role="note">
          Resolving {parsed.handles.length === 1 ? 'a handle' : `${parsed.handles.length} handles`} costs{' '}
          {handleCost.calls} people {handleCost.calls === 1 ? 'search' : 'searches'}, about{' '}
          {creditsLabel(handleCost.credits, null)}, before the lookup.
        </p>
      ) : null}
      {parsed.damaged.length ? (
        <div className="lookup-refused" role="alert">
          <p>
            {parsed.damaged.length === 1 ? 'One id was' : `${parsed.damaged.length} ids were`} damaged by a spreadsheet
            and will not be looked up:
          </p>
          <ul>
            {parsed.damaged.slice(0, 10).map((d) => (
              <li key={d.token}>
                <code>{d.token}</code> — {d.why}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {unresolved.length ? (
        <div className="lookup-refused" role="alert">
          <p>Not resolved (not looked up):</p>
          <ul>
            {unresolved.map((u) => (
              <li key={u.handle}>
                <code>@{u.handle}</code> — {u.why}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="lookup-form__actions">
        <button
          type="submit"
          className="btn btn--primary"
          disabled={(parsed.ids.length === 0 && parsed.handles.length === 0) || resolving !== null}
        >
          {parsed.handles.length ? 'Resolve handles and look up' : 'Look up'}
        </button>
        {resolving ? (
          <span role="status">
            Resolving handle {Math.min(resolving.done + 1, resolving.of)} of {resolving.of}…
          </span>
        ) : null}
      </div>
    </form>
  );
}
