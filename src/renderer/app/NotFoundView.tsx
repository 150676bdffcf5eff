import { formatRoute, routes } from '../lib/routes';

export function NotFoundView({ path }: { path: string }) {
  return (
    <div className="view">
      <header className="view__header">
        <h1 tabIndex={-1}>Nothing here</h1>
      </header>
      <div className="state">
        <p className="state__message">
          Skein has no view for <code>{path || '/'}</code>. Paste a post, profile, community, list or space link into
          the Go box, or go <a href={formatRoute(routes.home())}>home</a>.
        </p>
      </div>
    </div>
  );
}
