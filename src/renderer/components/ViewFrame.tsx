import type { ReactNode } from 'react';

/** A view's page: its heading (focus target on arrival), optional actions beside it, and its content. */
export function ViewFrame({
  title,
  actions,
  children,
  className,
}: {
  title: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
  className?: string;
}) {
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
