import { formatRoute, routes } from '../../../lib/routes';

/** Where what Skein collects is kept: found from Settings too, in either mode. */
export function ProjectsSection() {
  return (
    <section className="settings__section" aria-labelledby="settings-projects">
      <h2 id="settings-projects">Projects</h2>
      <p className="muted settings__hint">
        Everything Skein collects is kept in a project: a file on this computer, or a team project on your lab’s
        PostgreSQL that several people collect into. Demo data has a project of its own, kept apart.
      </p>
      <p>
        <a href={formatRoute(routes.archive())}>Manage projects in the Archive</a> — create, open, switch, connect to a
        team project, or copy this one to the team’s database.
      </p>
    </section>
  );
}
