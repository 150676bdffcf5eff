import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ProjectInfo, ProjectsState } from '../../../../shared/ipc/archive';
import { ErrorState } from '../../../components/ErrorState';
import { skein } from '../../../lib/bridge';
import { stamp } from '../../../lib/time';
import { archiveKeys, projectKeys, projectsQuery } from '../queries';
import { CopyProjectForm } from './CopyProject';
import { HeadlessRuns } from './HeadlessRuns';
import { ResearcherForm, TeamProjectForm } from './TeamProject';

const TLS: Record<NonNullable<ProjectInfo['tls']>, string> = {
  verified: 'TLS, the server’s certificate checked',
  unverified: 'TLS, the server’s certificate not checked',
  off: 'not encrypted',
};

/** Who recorded answers into the project, latest first: a team's collections in progress show here on refresh. */
function Researchers({ project }: { project: ProjectInfo }) {
  const named = project.researchers.filter((r) => r.name !== null);
  if (named.length === 0 && project.store !== 'postgres') return null;
  return (
    <p className="archive-project__team">
      Collected by:{' '}
      {project.researchers.length === 0
        ? 'nobody yet.'
        : project.researchers.map((r, i) => (
            <span key={r.name ?? ''}>
              {i > 0 ? '; ' : ''}
              <strong>{r.name ?? 'unnamed'}</strong> — {r.answers.toLocaleString()}{' '}
              {r.answers === 1 ? 'answer' : 'answers'}, latest {stamp(r.lastAt)}
            </span>
          ))}
    </p>
  );
}

/**
 * The project the Archive view reads: its name, where it lives and its counts, who collected into it; refresh
 * (a team's project changes as others collect); rename, create (main asks where), open (main's dialog), switch
 * to a known one, connect to a team project on PostgreSQL, copy it. In demo mode the demo project is shown.
 */
export function ProjectPanel({ demo }: { demo: boolean }) {
  const client = useQueryClient();
  const state = useQuery(projectsQuery());
  const [name, setName] = useState('');
  const done = (next: ProjectsState) => {
    client.setQueryData(projectKeys.state(), next);
    void client.invalidateQueries({ queryKey: archiveKeys.all });
  };
  const change = useMutation({
    mutationFn: (
      action: { kind: 'rename' | 'create'; name: string } | { kind: 'switch'; id: string } | { kind: 'open' },
    ) =>
      action.kind === 'rename'
        ? skein().projects.rename({ name: action.name })
        : action.kind === 'create'
          ? skein().projects.create({ name: action.name })
          : action.kind === 'switch'
            ? skein().projects.switch({ id: action.id })
            : skein().projects.open(),
    onSuccess: done,
  });
  const data = state.data;
  const project = demo ? data?.demo : data?.current;
  return (
    <section className="archive-project" aria-label="Project">
      {project ? (
        <>
          <p className="archive-project__summary">
            <strong>{project.name}</strong> · {project.items.toLocaleString()} items from{' '}
            {project.requests.toLocaleString()} answers ·{' '}
            <span className="archive-project__path">{project.location}</span>
            {project.store === 'postgres' && project.tls ? ` · team project on PostgreSQL, ${TLS[project.tls]}` : ''}
            {demo ? ' · demo data, kept apart from your live projects' : ''}{' '}
            <button
              type="button"
              className="btn btn--small"
              onClick={() => {
                void client.invalidateQueries({ queryKey: projectKeys.all });
                void client.invalidateQueries({ queryKey: archiveKeys.all });
              }}
            >
              Refresh
            </button>
          </p>
          {project.readOnly ? (
            <p className="archive-project__problem" role="alert">
              Read only: {project.readOnly}
            </p>
          ) : null}
          <Researchers project={project} />
          <HeadlessRuns />
        </>
      ) : null}
      {data?.problem && !demo ? (
        <p className="archive-project__problem" role="alert">
          {data.problem}
        </p>
      ) : null}
      {data ? (
        <details className="archive-project__manage">
          <summary>Manage projects</summary>
          {demo ? (
            <p className="archive-project__hint">
              In demo mode what Skein collects goes to the demo project, kept apart. The projects here — files on this
              computer or team projects on PostgreSQL — are where your live work goes; the one chosen is used as soon as
              you switch to Live in Settings.
            </p>
          ) : null}
          <form
            className="archive-project__form"
            onSubmit={(e) => {
              e.preventDefault();
              if (name.trim()) change.mutate({ kind: 'create', name: name.trim() });
            }}
          >
            <label className="field">
              <span>Project name</span>
              <input className="input" value={name} maxLength={120} onChange={(e) => setName(e.target.value)} />
            </label>
            <button type="submit" className="btn" disabled={!name.trim() || change.isPending}>
              New project…
            </button>
            <button
              type="button"
              className="btn"
              disabled={!name.trim() || change.isPending}
              onClick={() => change.mutate({ kind: 'rename', name: name.trim() })}
            >
              {demo ? 'Rename the live project' : 'Rename this one'}
            </button>
            <button type="button" className="btn" onClick={() => change.mutate({ kind: 'open' })}>
              Open…
            </button>
            <label className="field">
              <span>Switch to</span>
              <select
                className="select"
                value={data.current?.id ?? ''}
                onChange={(e) => change.mutate({ kind: 'switch', id: e.target.value })}
              >
                {data.known.map((k) => (
                  <option key={k.id} value={k.id}>
                    {k.store === 'postgres' ? 'team project' : 'file'}: {k.name} — {k.location}
                  </option>
                ))}
              </select>
            </label>
          </form>
          {change.isError ? <ErrorState compact error={change.error} what="the project" /> : null}
          <ResearcherForm key={`name-${data.researcher}`} researcher={data.researcher} />
          <TeamProjectForm researcher={data.researcher} />
          <CopyProjectForm state={data} />
        </details>
      ) : null}
    </section>
  );
}
