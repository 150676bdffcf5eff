import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { postsByIdsQuery, usersByIdsQuery } from '../lib/lookups';
import { goCandidates, goRefusal } from '../lib/go-target';
import { goLabel, type Known } from '../lib/titles';
import { nameIn, useNames } from '../state/names';
import { useUi } from '../state/ui';
import { navigate } from '../lib/navigation';

/**
 * "Go to": paste a post URL or id, a profile URL or @handle, a community,
 * list or space URL or id. Enter opens the first reading; ↑/↓ pick another
 * (a bare number may be a post, a profile, a community or a list).
 */
export function GoBox() {
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const [open, setOpen] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();
  const focusRequest = useUi((s) => s.goFocusRequest);
  const candidates = goCandidates(text);
  const expanded = open && candidates.length > 0;
  const refusal = goRefusal(text);
  // choices in words when the app knows what they open (no call is made for it)
  const client = useQueryClient();
  const names = useNames((s) => s.names);
  const known: Known = {
    post: (id) => client.getQueryData(postsByIdsQuery([id]).queryKey)?.items.find((p) => p.id === id) ?? null,
    userName: (id) =>
      client.getQueryData(usersByIdsQuery([id]).queryKey)?.items.find((u) => u.id === id)?.userName ?? null,
    listName: (id) => nameIn(names, 'list', id),
  };

  useEffect(() => {
    if (focusRequest > 0) {
      input.current?.focus();
      input.current?.select();
    }
  }, [focusRequest]);

  const go = (i: number) => {
    const c = candidates[i];
    if (!c) return;
    setText('');
    setOpen(false);
    setActive(0);
    input.current?.blur();
    navigate(c.route);
  };

  return (
    <form
      className="gobox"
      role="search"
      aria-label="Go to"
      onSubmit={(e) => {
        e.preventDefault();
        go(active);
      }}
    >
      <input
        ref={input}
        className="gobox__input"
        type="text"
        role="combobox"
        aria-label="Go to"
        aria-keyshortcuts="/"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={expanded ? `${listId}-${active}` : undefined}
        aria-describedby={refusal ? `${listId}-refusal` : undefined}
        placeholder="Go to: post URL or id, @handle, community, list or space… ( / )"
        autoComplete="off"
        spellCheck={false}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setActive(0);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && candidates.length) {
            e.preventDefault();
            setOpen(true);
            setActive((a) => (a + 1) % candidates.length);
          } else if (e.key === 'ArrowUp' && candidates.length) {
            e.preventDefault();
            setActive((a) => (a - 1 + candidates.length) % candidates.length);
          } else if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            if (text) setText('');
            else input.current?.blur();
          }
        }}
      />
      <ul id={listId} role="listbox" aria-label="Open as" className="gobox__list" hidden={!expanded}>
        {candidates.map((c, i) => (
          <li
            key={`${c.route.name}-${i}`}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            className="gobox__option"
            onMouseDown={(e) => {
              e.preventDefault();
              go(i);
            }}
          >
            {goLabel(c, known)}
          </li>
        ))}
      </ul>
      {refusal ? (
        <p id={`${listId}-refusal`} className="gobox__refusal" role="status">
          {refusal}
        </p>
      ) : null}
    </form>
  );
}
