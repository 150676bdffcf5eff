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
  children: ReactNode;
}

/** WAI-ARIA tabs with automatic activation (←/→, Home/End). */
export function Tabs<Id extends string>({ label, tabs, selected, onSelect, idPrefix, children }: Props<Id>) {
  const list = useRef<HTMLDivElement>(null);
  const onKeyDown = (e: KeyboardEvent) => {
    const i = tabs.findIndex((t) => t.id === selected);
    let next = -1;
    if (e.key === 'ArrowRight') next = (i + 1) % tabs.length;
    else if (e.key === 'ArrowLeft') next = (i - 1 + tabs.length) % tabs.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = tabs.length - 1;
    if (next < 0) return;
    e.preventDefault();
    e.stopPropagation();
    onSelect(tabs[next]!.id);
    list.current?.querySelectorAll<HTMLElement>('[role="tab"]')[next]?.focus();
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
      <div role="tabpanel" id={`${idPrefix}-panel`} aria-labelledby={`${idPrefix}-tab-${selected}`} className="tabs__panel">
        {children}
      </div>
    </div>
  );
}
