import { memo, type ReactNode } from 'react';
import './states.css';

/** Grey placeholder cards shaped like posts while the first page loads. */
export function SkeletonList({ count = 4, label }: { count?: number; label: string }) {
  return (
    <div className="skeleton-list" role="status" aria-live="polite">
      <span className="visually-hidden">{label}</span>
      <SkeletonCards count={count} />
    </div>
  );
}

/** `count` grey placeholder cards, hidden from assistive tech (the caller says what is loading). */
export const SkeletonCards = memo(function SkeletonCards({ count }: { count: number }) {
  return Array.from({ length: count }, (_, i) => (
    <div key={i} className="skeleton" aria-hidden="true">
      <SkeletonShapes />
    </div>
  ));
});

/** The grey shapes of a placeholder post card (avatar and three lines), hidden from assistive tech. */
export function SkeletonShapes() {
  return (
    <>
      <span className="skeleton__avatar" aria-hidden="true" />
      <span className="skeleton__lines" aria-hidden="true">
        <span className="skeleton__line skeleton__line--short" />
        <span className="skeleton__line" />
        <span className="skeleton__line skeleton__line--mid" />
      </span>
    </>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state state--empty" role="status">
      <p className="state__title">{title}</p>
      {children ? <div className="state__message">{children}</div> : null}
    </div>
  );
}

/** A small note under a list ("3 duplicates removed", "served from cache"). */
export function Note({ children }: { children: ReactNode }) {
  return <p className="note">{children}</p>;
}
