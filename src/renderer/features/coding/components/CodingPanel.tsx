/**
 * Coding where posts are shown: with “Code in every view” on, a panel docked below any view
 * follows the post or account in focus (a click, `j`/`k`) and codes it — by its buttons, or by a category's key
 * while the card has focus. The coder's own values only; the item is coded as it is in the project.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { CodedKind, CodeValue, FieldDef } from '../../../../shared/coding/codebook';
import { keyMap, pressed, type KeyTarget } from '../keys';
import { useCode, useCodebook, useValues } from '../queries';
import { useCodingSelection } from '../selection';
import { FieldPanel } from './FieldPanel';
import { Problem } from './parts';
import './coding.css';

const TYPING = /^(INPUT|TEXTAREA|SELECT)$/;

function itemOf(el: Element | null): { kind: CodedKind; id: string } | null {
  const card = el?.closest<HTMLElement>('[data-post-id], [data-user-id]');
  if (!card || card.closest('.coding-panel')) return null;
  const post = card.getAttribute('data-post-id');
  if (post && /^\d{1,25}$/.test(post)) return { kind: 'post', id: post };
  const user = card.getAttribute('data-user-id');
  return user && /^\d{1,25}$/.test(user) ? { kind: 'user', id: user } : null;
}

export function CodingPanel() {
  const { codebook, coder, everywhere, codeEverywhere } = useCodingSelection();
  const book = useCodebook(everywhere ? codebook : null);
  const [item, setItem] = useState<{ kind: CodedKind; id: string } | null>(null);
  const values = useValues(everywhere ? codebook : null, coder, item?.kind ?? 'post', item ? [item.id] : []);
  const code = useCode();
  const definition = book.data?.versions.at(-1)?.definition;
  const keys = useMemo(() => (definition ? keyMap(definition) : new Map<string, KeyTarget>()), [definition]);
  const current = useMemo(() => new Map((values.data ?? []).map((v) => [v.field, v.value])), [values.data]);

  const set = (field: FieldDef, value: CodeValue | null) => {
    if (!item || codebook === null || coder === null) return;
    code.mutate({ codebook, coder, kind: item.kind, id: item.id, field: field.key, value });
  };
  const live = useRef({ set, keys, current, item });
  useLayoutEffect(() => {
    live.current = { set, keys, current, item };
  });

  useEffect(() => {
    if (!everywhere) return;
    const onFocus = (e: FocusEvent) => {
      const found = itemOf(e.target as Element);
      if (found) setItem(found);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
      const target = e.target instanceof Element ? e.target : null;
      if (target instanceof HTMLElement && (TYPING.test(target.tagName) || target.isContentEditable)) return;
      const s = live.current;
      const here = itemOf(target);
      if (!here || !s.item || here.id !== s.item.id) return;
      const k = s.keys.get(e.key.toLowerCase());
      if (!k) return;
      e.preventDefault();
      s.set(k.field, pressed(k.field, s.current.get(k.field.key), k.value));
    };
    document.addEventListener('focusin', onFocus);
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('focusin', onFocus);
      document.removeEventListener('keydown', onKey, true);
    };
  }, [everywhere]);

  if (!everywhere || codebook === null || coder === null || !definition) return null;
  return (
    <aside className="coding-panel" aria-label="Coding panel">
      <div className="coding-panel__head">
        <strong>Coding</strong>{' '}
        <span className="muted" data-testid="coding-panel-item">
          {item
            ? `${item.kind === 'post' ? 'post' : 'account'} ${item.id}`
            : 'focus a post or account (click it, or j/k) to code it'}
        </span>
        <button type="button" className="btn btn--small" onClick={() => codeEverywhere(false)}>
          Stop coding here
        </button>
      </div>
      {item ? (
        <FieldPanel definition={definition} values={current} onSet={set} label="Codes of the item in focus" />
      ) : null}
      <Problem error={code.error} />
    </aside>
  );
}
