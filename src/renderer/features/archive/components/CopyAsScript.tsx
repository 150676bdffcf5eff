import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import type { ArchiveQuery, ArchiveSnippet, SnippetLanguage } from '../../../../shared/ipc/archive';
import { ErrorState } from '../../../components/ErrorState';
import { skein } from '../../../lib/bridge';
import { copyText } from '../../../lib/clipboard';

const FROM_PROJECT = 'It reads the same rows from the project itself.';
const LANGUAGES: ReadonlyArray<{ language: SnippetLanguage; label: string; reads: string; runs: string }> = [
  { language: 'python', label: 'Python', reads: FROM_PROJECT, runs: 'Run it with Python 3 and pandas.' },
  { language: 'r', label: 'R', reads: FROM_PROJECT, runs: 'Run it with R (DBI).' },
  { language: 'sql', label: 'SQL', reads: FROM_PROJECT, runs: 'Run it with the sqlite3 shell or psql.' },
  {
    language: 'duckdb',
    label: 'DuckDB',
    reads: 'It reads the same rows from a Parquet copy of the project, made for it now.',
    runs: 'Run it with the DuckDB shell.',
  },
];

/**
 * "Copy as Python / R / SQL / DuckDB": a script, written by main for this project, that reads the rows the view
 * shows straight from the project (DuckDB's from a Parquet copy of the project, which main makes first), put on
 * the clipboard and shown in a dialog to read or select.
 */
export function CopyAsScript({ query }: { query: ArchiveQuery }) {
  const write = useMutation({
    mutationFn: async (language: SnippetLanguage) => {
      const snippet = await skein().archive.snippet({ ...query, language });
      return { snippet, copied: await copyText(snippet.text) };
    },
  });
  return (
    <div className="archive-export" role="group" aria-label="Copy this view as a script">
      <span>Copy as</span>
      {LANGUAGES.map(({ language, label }) => (
        <button
          key={language}
          type="button"
          className="btn"
          aria-label={`Copy as ${label}`}
          disabled={write.isPending}
          onClick={() => write.mutate(language)}
        >
          {label}
        </button>
      ))}
      {write.isPending && write.variables === 'duckdb' ? (
        <span role="status">Copying the project as Parquet for DuckDB…</span>
      ) : null}
      {write.isError ? <ErrorState compact error={write.error} what="the script" /> : null}
      {write.isSuccess ? (
        <ScriptDialog snippet={write.data.snippet} copied={write.data.copied} onClose={() => write.reset()} />
      ) : null}
    </div>
  );
}

/** The script in a modal dialog, its text selectable; Esc or Close closes it. */
function ScriptDialog({ snippet, copied, onClose }: { snippet: ArchiveSnippet; copied: boolean; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const kind = LANGUAGES.find((l) => l.language === snippet.language) ?? LANGUAGES[0]!;
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className="script-dialog"
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId} className="script-dialog__title">
        This view as {kind.label}
      </h2>
      <p role="status">
        {copied
          ? 'Copied to the clipboard.'
          : 'It could not be put on the clipboard: select the text below and copy it.'}{' '}
        {kind.reads} {kind.runs}
      </p>
      {snippet.note ? <p className="script-dialog__note">{snippet.note}</p> : null}
      <textarea
        className="script-dialog__text"
        aria-label={`The ${kind.label} script`}
        readOnly
        spellCheck={false}
        value={snippet.text}
        rows={16}
        onFocus={(e) => e.currentTarget.select()}
      />
      <div className="script-dialog__buttons">
        <button type="button" className="btn btn--primary" autoFocus onClick={onClose}>
          Close
        </button>
      </div>
    </dialog>
  );
}
