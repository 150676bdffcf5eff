import { useState, type DragEvent } from 'react';
import { navigate } from '../../../app/navigation';
import { Tabs } from '../../../components/Tabs';
import { parseIdList } from '../../../lib/id-list';
import { routes, type LookupKind, type Route } from '../../../lib/routes';
import { LookupResults } from './LookupResults';
import './lookup.css';

type LookupRoute = Extract<Route, { name: 'lookup' }>;

const TEXT = {
  posts: { label: 'Post ids or post URLs', placeholder: '1850000000000000001, 1850000000000000002\nhttps://x.com/someone/status/1850000000000000003' },
  users: { label: 'User ids (numeric)', placeholder: '44196397\n783214, 12' },
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
        <LookupForm key={`${kind}:${route.ids}`} kind={kind} initial={route.ids} />
        {route.ids ? <LookupResults kind={kind} ids={parseIdList(route.ids, kind).ids} /> : null}
      </Tabs>
    </div>
  );
}

function LookupForm({ kind, initial }: { kind: LookupKind; initial: string }) {
  const [text, setText] = useState(initial.split(',').join('\n'));
  const [dragging, setDragging] = useState(false);
  const parsed = parseIdList(text, kind);
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
        if (parsed.ids.length) navigate(routes.lookup(kind, parsed.ids.join(',')));
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
        Separate with commas, spaces or new lines, or drop a text file. {parsed.ids.length} {parsed.ids.length === 1 ? 'id' : 'ids'} read
        {parsed.ids.length > 100 ? ` (${Math.ceil(parsed.ids.length / 100)} calls of up to 100)` : ''}
        {parsed.repeated ? `, ${parsed.repeated} repeated` : ''}
        {parsed.invalid.length ? `, ${parsed.invalid.length} not readable: ${parsed.invalid.slice(0, 5).join(' ')}${parsed.invalid.length > 5 ? ' …' : ''}` : ''}.
      </p>
      <div>
        <button type="submit" className="btn btn--primary" disabled={parsed.ids.length === 0}>
          Look up
        </button>
      </div>
    </form>
  );
}
