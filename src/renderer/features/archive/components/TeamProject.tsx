import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { isSkeinError } from '../../../../shared/errors';
import type { ProjectsState } from '../../../../shared/ipc/archive';
import { skein } from '../../../lib/bridge';
import { splitPassword } from '../connection';
import { archiveKeys, projectKeys } from '../queries';

/** A failure said as main said it: the problem, then what to do (a database's refusal is not the API's). */
export function ProblemAlert({ error }: { error: unknown }) {
  const message = error instanceof Error ? error.message : String(error);
  const action = isSkeinError(error) ? error.details?.action : undefined;
  return (
    <p className="archive-project__problem" role="alert">
      {message}
      {action ? <span className="archive-project__action"> {action}</span> : null}
    </p>
  );
}

/**
 * Connect to a team project: a schema of a PostgreSQL database the team already runs. The password goes to
 * main once (kept by the OS key store there) and never comes back; the page only ever sees the address.
 */
export function TeamProjectForm({ researcher }: { researcher: string }) {
  const client = useQueryClient();
  const id = useId();
  const [connection, setConnection] = useState('');
  const [password, setPassword] = useState('');
  const [schema, setSchema] = useState('skein');
  // the name recorded, until typed here: kept when the form stays mounted across a connection (its report shows)
  const [typedName, setName] = useState<string | null>(null);
  const name = typedName ?? researcher;
  const [title, setTitle] = useState('');
  const [move, setMove] = useState(false);
  const connect = useMutation({
    mutationFn: (typed: { connection: string; password: string; move: boolean }) =>
      skein().projects.connect({
        connection: typed.connection,
        ...(typed.password ? { password: typed.password } : {}),
        schema: schema.trim(),
        researcher: name.trim(),
        ...(title.trim() && !typed.move ? { name: title.trim() } : {}),
        ...(typed.move ? { move: true } : {}),
      }),
    onSuccess: (next: ProjectsState) => {
      setPassword('');
      setMove(false);
      client.setQueryData(projectKeys.state(), next);
      void client.invalidateQueries({ queryKey: archiveKeys.all });
    },
  });
  const ready = connection.trim() !== '' && name.trim() !== '' && schema.trim() !== '' && !connect.isPending;
  return (
    <form
      className="archive-project__form archive-project__team-form"
      aria-labelledby={`${id}-title`}
      // a refusal is about what was sent: once the person changes what they typed, it no longer describes the form
      onChange={() => {
        if (connect.isError) connect.reset();
      }}
      onSubmit={(e) => {
        e.preventDefault();
        if (!ready) return;
        // a password typed into the address leaves the field (and the page) before anything is sent
        const typed = splitPassword(connection);
        setConnection(typed.connection);
        if (typed.password !== null && !password) setPassword(typed.password);
        connect.mutate({ connection: typed.connection, password: password || (typed.password ?? ''), move });
      }}
    >
      <h3 id={`${id}-title`} className="archive-project__subtitle">
        Team project on PostgreSQL
      </h3>
      <p className="archive-project__hint">
        Every Skein of the team points at the same database and schema. TLS is on and the server’s certificate is
        checked; add <code>?sslmode=disable</code> only for a server on this computer.
      </p>
      <label className="field archive-project__wide">
        <span>Connection string</span>
        <input
          className="input"
          value={connection}
          maxLength={2000}
          spellCheck={false}
          autoComplete="off"
          placeholder="postgresql://you@db.example.org:5432/research"
          onChange={(e) => setConnection(e.target.value)}
        />
      </label>
      <label className="field">
        <span>Password</span>
        <input
          className="input"
          type="password"
          value={password}
          maxLength={1000}
          autoComplete="off"
          onChange={(e) => setPassword(e.target.value)}
        />
      </label>
      <label className="field">
        <span>Schema</span>
        <input
          className="input"
          value={schema}
          maxLength={63}
          spellCheck={false}
          onChange={(e) => setSchema(e.target.value)}
        />
      </label>
      <label className="field">
        <span>Your name</span>
        <input className="input" value={name} maxLength={80} onChange={(e) => setName(e.target.value)} />
      </label>
      <label className="field">
        <span>Project name (if new)</span>
        <input className="input" value={title} maxLength={120} onChange={(e) => setTitle(e.target.value)} />
      </label>
      <label className="archive-project__wide">
        <input type="checkbox" checked={move} onChange={(e) => setMove(e.target.checked)} /> Move this project there:
        copy it in, check every count, then work there (the file is left as it was)
      </label>
      <button type="submit" className="btn" disabled={!ready}>
        {connect.isPending ? (move ? 'Moving…' : 'Connecting…') : move ? 'Connect and move' : 'Connect'}
      </button>
      {connect.isError ? <ProblemAlert error={connect.error} /> : null}
      {connect.isSuccess && connect.data.current ? (
        <p className="archive-project__copied" role="status">
          {connect.variables.move
            ? `Moved: this project is now the team project “${connect.data.current.name}”, every count checked; Skein works there, and the file is left as it was.`
            : `Connected: Skein now works in the team project “${connect.data.current.name}”.`}
        </p>
      ) : null}
    </form>
  );
}

/** The name this Skein records with every answer it collects (a team project says who collected what). */
export function ResearcherForm({ researcher }: { researcher: string }) {
  const client = useQueryClient();
  const [name, setName] = useState(researcher);
  const save = useMutation({
    mutationFn: () => skein().projects.researcher({ name: name.trim() }),
    onSuccess: (next: ProjectsState) => client.setQueryData(projectKeys.state(), next),
  });
  return (
    <form
      className="archive-project__form"
      aria-label="Your name"
      onSubmit={(e) => {
        e.preventDefault();
        if (name.trim()) save.mutate();
      }}
    >
      <label className="field">
        <span>Your name, recorded with what you collect</span>
        <input className="input" value={name} maxLength={80} onChange={(e) => setName(e.target.value)} />
      </label>
      <button type="submit" className="btn" disabled={!name.trim() || name.trim() === researcher || save.isPending}>
        Save name
      </button>
      {save.isError ? <ProblemAlert error={save.error} /> : null}
    </form>
  );
}
