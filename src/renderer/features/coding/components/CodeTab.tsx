/**
 * Coding a sample by keyboard: the item, the codebook's fields beside it with a key per category, `j`/`→` for
 * the next item and `k`/`←` for the one before, the position and how many are done. The coder sees their own
 * values only. The workbench owns its keys before anything else on the page (a focused tab strip included),
 * and takes the focus when a coder is chosen, so the first key press codes. The item, the post it replies to
 * and the post it quotes are read in place from the project: nothing here spends a call.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { CodeValue, FieldDef } from '../../../../shared/coding/codebook';
import type { CardPost } from '../../../../shared/api/schemas';
import type { QueueEntry } from '../../../../shared/ipc/coding';
import { PostCard } from '../../../components/post/PostCard';
import { navigate } from '../../../lib/navigation';
import { routes } from '../../../lib/routes';
import { isDone, keyMap, otherKindsWords, pressed, type KeyTarget } from '../keys';
import { codersQuery, useCode, useCodebook, useQueue } from '../queries';
import { useCodingSelection } from '../selection';
import { FieldPanel } from './FieldPanel';
import { ItemCard, Problem } from './parts';

const TYPING = /^(INPUT|TEXTAREA|SELECT)$/;

export function CodeTab() {
  const { codebook, coder, sample, everywhere, codeEverywhere } = useCodingSelection();
  const book = useCodebook(codebook);
  const coders = useQuery(codersQuery());
  const queue = useQueue(sample, coder);
  const code = useCode();
  const [index, setIndex] = useState(0);
  const started = useRef<string | null>(null);
  const bench = useRef<HTMLDivElement>(null);
  const chosen = useRef(coder);
  const wantFocus = useRef(false);
  const version = book.data?.versions.at(-1);
  const definition = version?.definition;
  const keys = useMemo(() => (definition ? keyMap(definition) : new Map<string, KeyTarget>()), [definition]);
  const entries = queue.data?.entries ?? [];
  const entry: QueueEntry | undefined = entries[Math.min(index, Math.max(0, entries.length - 1))];

  // start at the first item not done yet, once per queue (a sample and a coder)
  useEffect(() => {
    const which = `${sample}:${coder}`;
    if (!definition || !queue.data || started.current === which) return;
    started.current = which;
    const first = queue.data.entries.findIndex((e) => !isDone(definition, e.values));
    setIndex(first < 0 ? 0 : first);
  }, [definition, queue.data, sample, coder]);

  // a coder just chosen: the workbench takes the focus as soon as it shows, so the next key codes
  useEffect(() => {
    if (chosen.current === coder) return;
    chosen.current = coder;
    wantFocus.current = coder !== null;
  }, [coder]);
  useEffect(() => {
    if (!wantFocus.current || !bench.current) return;
    wantFocus.current = false;
    bench.current.focus();
  });

  const values = useMemo(() => new Map((entry?.values ?? []).map((v) => [v.field, v.value])), [entry]);
  const set = (field: FieldDef, value: CodeValue | null) => {
    if (!entry || codebook === null || coder === null) return;
    code.mutate({ codebook, coder, kind: entry.kind, id: entry.id, field: field.key, value });
  };

  // keys: a category's key codes the item; j/→ and k/← move (before the app's own j/k, which move focus)
  const live = useRef({ set, values, entry, keys, entries, index });
  useLayoutEffect(() => {
    live.current = { set, values, entry, keys, entries, index };
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.target instanceof HTMLElement && (TYPING.test(e.target.tagName) || e.target.isContentEditable)) return;
      if (document.querySelector('dialog[open]')) return;
      const s = live.current;
      if (!s.entry) return;
      // a key the workbench answers goes no further: a focused tab strip must not switch tabs mid-coding
      const own = () => {
        e.preventDefault();
        e.stopPropagation();
      };
      if (e.key === 'j' || e.key === 'ArrowRight') {
        own();
        setIndex(Math.min(s.index + 1, s.entries.length - 1));
      } else if (e.key === 'k' || e.key === 'ArrowLeft') {
        own();
        setIndex(Math.max(s.index - 1, 0));
      } else {
        const target = s.keys.get(e.key.toLowerCase());
        if (!target) return;
        own();
        s.set(target.field, pressed(target.field, s.values.get(target.field.key), target.value));
      }
    };
    document.addEventListener('keydown', onKey, true);
    return () => document.removeEventListener('keydown', onKey, true);
  }, []);

  if (codebook === null)
    return (
      <div className="coding__empty">
        <p>No codebook yet.</p>
        <button type="button" className="btn btn--primary" onClick={() => navigate(routes.coding('codebook'))}>
          Write a codebook
        </button>
      </div>
    );
  if (coder === null)
    return (
      <div className="coding__empty">
        <p>Choose who is coding (“Coding as”), or add a coder.</p>
        <button type="button" className="btn" onClick={() => navigate(routes.coding('coders'))}>
          Add a coder
        </button>
      </div>
    );
  if (sample === null)
    return (
      <div className="coding__empty">
        <p>No sample to code yet. Draw one from what this project holds.</p>
        <button type="button" className="btn btn--primary" onClick={() => navigate(routes.coding('samples'))}>
          Draw a sample
        </button>
      </div>
    );
  if (queue.isError) return <Problem error={queue.error} />;
  if (!queue.data || !definition) return <p className="muted">Loading the queue…</p>;
  if (queue.data.total === 0)
    return (
      <p className="coding__empty">
        {coders.data?.find((c) => c.id === coder)?.name ?? 'This coder'} has no items in this sample: choose another
        coder, or draw a sample assigned to them.
      </p>
    );
  const otherKinds = queue.data.otherKinds ? (
    <p className="note" role="note">
      {otherKindsWords(queue.data.otherKinds, 'queue')}
    </p>
  ) : null;
  if (entries.length === 0) return otherKinds;
  const position = Math.min(index, entries.length - 1);
  return (
    <div className="coding-workbench" ref={bench} tabIndex={-1} role="region" aria-label="Coding workbench">
      {otherKinds}
      <div className="coding-workbench__bar">
        <p role="status" data-testid="coding-progress">
          Item {position + 1} of {queue.data.total} · {queue.data.done} done
          {queue.data.nextOffset !== null ? ` (the first ${entries.length} listed)` : ''}
        </p>
        <div className="coding-workbench__nav">
          <button
            type="button"
            className="btn btn--small"
            disabled={position === 0}
            onClick={() => setIndex(position - 1)}
          >
            Previous <kbd>k</kbd>
          </button>
          <button
            type="button"
            className="btn btn--small"
            disabled={position >= entries.length - 1}
            onClick={() => setIndex(position + 1)}
          >
            Next <kbd>j</kbd>
          </button>
          <button
            type="button"
            className="btn btn--small"
            onClick={() => {
              const next = entries.findIndex((e, i) => i > position && !isDone(definition, e.values));
              const wrap = next < 0 ? entries.findIndex((e) => !isDone(definition, e.values)) : next;
              if (wrap >= 0) setIndex(wrap);
            }}
          >
            Next not done
          </button>
          <label className="coding-workbench__everywhere">
            <input type="checkbox" checked={everywhere} onChange={(e) => codeEverywhere(e.target.checked)} /> Code in
            every view
          </label>
        </div>
      </div>
      <div className="coding-workbench__main">
        <div className="coding-workbench__left">
          {entry ? <InReplyTo entry={entry} /> : null}
          <section className="coding-workbench__item" aria-label="Item to code">
            {entry ? <ItemCard item={entry} /> : null}
          </section>
        </div>
        <section className="coding-workbench__fields" aria-label="Codes">
          <FieldPanel
            definition={definition}
            values={values}
            onSet={set}
            label={`Codes, codebook version ${version?.version ?? ''}`}
          />
          <p className="muted coding-workbench__help">
            Press a category’s key to choose it (again to clear it); <kbd>j</kbd>/<kbd>→</kbd> next, <kbd>k</kbd>/
            <kbd>←</kbd> previous. Only your own values are shown.
          </p>
          <Problem error={code.error} />
        </section>
      </div>
    </div>
  );
}

/** The post a reply answers, read in place from the project; or that the project does not hold it. */
function InReplyTo({ entry }: { entry: QueueEntry }) {
  const post = entry.kind === 'post' ? (entry.item as CardPost | null) : null;
  if (!post?.isReply) return null;
  const parent = entry.parent as CardPost | null;
  return (
    <section className="coding-workbench__parent" aria-label="The post it replies to">
      <p className="muted">In reply to (from the project)</p>
      {parent ? (
        <PostCard post={parent} variant="quoted" inPlace />
      ) : (
        <p className="coding__missing">The post it replies to is not in this project.</p>
      )}
    </section>
  );
}
