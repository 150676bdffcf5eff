import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { COPY_TABLE_WORDS, type CopyResult, type ProjectsState } from '../../../../shared/ipc/archive';
import { skein } from '../../../lib/bridge';
import { archiveKeys, projectKeys } from '../queries';
import { ProblemAlert } from './TeamProject';

const NEW_FILE = '';

/**
 * Moving a project: the current one copied into a new project file or into a known project that holds nothing
 * yet (a team's schema), every table counted in both; the copy is kept only when the counts match.
 */
export function CopyProjectForm({ state }: { state: ProjectsState }) {
  const client = useQueryClient();
  const [to, setTo] = useState(NEW_FILE);
  const targets = state.known.filter((k) => k.id !== state.current?.id);
  const copy = useMutation({
    mutationFn: (move: boolean) => skein().projects.copy({ to: to === NEW_FILE ? { file: true } : { id: to }, move }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: projectKeys.all });
      void client.invalidateQueries({ queryKey: archiveKeys.all });
    },
  });
  const done: CopyResult | null | undefined = copy.data;
  const moved = copy.variables === true;
  const target = targets.find((k) => k.id === to);
  return (
    <form
      className="archive-project__form"
      aria-label="Copy this project"
      onSubmit={(e) => {
        e.preventDefault();
        copy.mutate(false);
      }}
    >
      <label className="field">
        <span>Copy this project into</span>
        <select className="select" value={to} onChange={(e) => setTo(e.target.value)}>
          <option value={NEW_FILE}>a new project file…</option>
          {targets.map((k) => (
            <option key={k.id} value={k.id}>
              {k.store === 'postgres' ? 'team project' : 'file'}: {k.name} — {k.location}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="btn" disabled={!state.current || copy.isPending}>
        {copy.isPending && !moved ? 'Copying…' : 'Copy'}
      </button>
      <button
        type="button"
        className="btn"
        disabled={!state.current || copy.isPending}
        onClick={() => copy.mutate(true)}
        title="Copy, check every count, then work in the copy"
      >
        {copy.isPending && moved
          ? 'Moving…'
          : target?.store === 'postgres'
            ? 'Move this project to the team database'
            : 'Move this project there'}
      </button>
      {done ? (
        <div className="archive-project__copied" role="status">
          <p>
            {moved ? 'Moved to' : 'Copied into'} <strong>{done.to.name}</strong> ({done.to.location}) in{' '}
            {(done.tookMs / 1000).toFixed(1)} s; every count matches.{' '}
            {moved
              ? 'Skein now works there; the original is left as it was.'
              : 'Switch to it from the list when you want to work there.'}
          </p>
          <table className="archive-project__counts">
            <thead>
              <tr>
                <th scope="col">Table</th>
                <th scope="col">Here</th>
                <th scope="col">Copied</th>
              </tr>
            </thead>
            <tbody>
              {done.tables.map((t) => (
                <tr key={t.name}>
                  <th scope="row">{COPY_TABLE_WORDS[t.name] ?? 'other records'}</th>
                  <td>{t.source.toLocaleString()}</td>
                  <td>{t.copied.toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {copy.isError ? <ProblemAlert error={copy.error} /> : null}
    </form>
  );
}
