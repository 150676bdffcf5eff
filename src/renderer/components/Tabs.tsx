import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import './tabs.css';

export interface TabSpec<Id extends string> {
  id: Id;
  label: string;
  /** shown after the label when known */
  count?: string | null;
}

interface Props<Id extends string> {
  label: string;
  tabs: ReadonlyArray<TabSpec<Id>>;
  selected: Id;
  onSelect: (id: Id) => void;
  idPrefix: string;
  /**
   * Manual activation: ←/→ only move focus, Enter or Space opens the tab. For tabs whose opening
   * costs a paid call (a post's replies, direct replies, quotes): walking past one must not buy it.
   */
  manual?: boolean;
  children: ReactNode;
}

/** WAI-ARIA tabs (←/→, Home/End), activated on focus or, with `manual`, on Enter. */
export function Tabs<Id extends string>({
  label,
  tabs,
  selected,
  onSelect,
  idPrefix,
  manual = false,
  children,
}: Props<Id>) {
  const list = useRef<HTMLDivElement>(null);
  const onKeyDown = (e: KeyboardEvent) => {
    const buttons = [...(list.current?.querySelectorAll<HTMLElement>('[role="tab"]') ?? [])];
    const focused = buttons.indexOf(document.activeElement as HTMLElement);
    const i = manual && focused >= 0 ? focused : tabs.findIndex((t) => t.id === selected);
    let next = -1;
    if (e.key === 'ArrowRight') next = (i + 1) % tabs.length;
    else if (e.key === 'ArrowLeft') next = (i - 1 + tabs.length) % tabs.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = tabs.length - 1;
    if (next < 0) return;
    e.preventDefault();
    e.stopPropagation();
    if (!manual) onSelect(tabs[next]!.id);
    buttons[next]?.focus();
  };
  return (
    <div className="tabs">
      <div ref={list} role="tablist" aria-label={label} className="tabs__list" onKeyDown={onKeyDown}>
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`${idPrefix}-tab-${t.id}`}
            aria-selected={t.id === selected}
            aria-controls={`${idPrefix}-panel`}
            tabIndex={t.id === selected ? 0 : -1}
            className="tabs__tab"
            onClick={() => onSelect(t.id)}
          >
            {t.label}
            {t.count ? (
              <>
                {' '}
                <span className="tabs__count">{t.count}</span>
              </>
            ) : null}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${idPrefix}-panel`}
        aria-labelledby={`${idPrefix}-tab-${selected}`}
        className="tabs__panel"
      >
        {children}
      </div>
    </div>
  );
}
