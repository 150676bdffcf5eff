import type { ReactNode } from 'react';

/** A view's page: its heading (focus target on arrival), optional actions beside it, and its content. */
export function ViewFrame({ title, actions, children, className }: { title: ReactNode; actions?: ReactNode; children?: ReactNode; className?: string }) {
  return (
    <div className={`view${className ? ` ${className}` : ''}`}>
      <header className="view__header">
        <h1 tabIndex={-1}>{title}</h1>
        {actions ? <div className="view__actions">{actions}</div> : null}
      </header>
      {children}
    </div>
  );
}

/** Placeholder body for a view whose feature is still being built (explorer part 2, issue 6). */
export function ComingSoon({ what }: { what: string }) {
  return (
    <div className="state" role="status">
      <p className="state__title">{what} will appear here.</p>
      <p className="state__message">This view is part of the explorer’s second part and is not built yet.</p>
    </div>
  );
}
