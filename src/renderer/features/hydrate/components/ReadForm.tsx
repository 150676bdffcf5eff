import { useState } from 'react';
import type { IdFilePreview, IdImport, IdSource } from '../../../../shared/ipc/ids';
import { skein } from '../../../lib/bridge';
import type { LookupKind } from '../../../lib/routes';
import { idsFromPackage } from '../id-package';
import { useReadIdList } from '../queries';
import { ReadReport } from './ReadReport';

/** how a file is read: a zip is a package for re-hydration, its id file read as text */
type Format = 'txt' | 'csv' | 'jsonl' | 'zip';

function formatOf(name: string): Format {
  const ext = name.toLowerCase().split('.').pop() ?? '';
  if (ext === 'csv' || ext === 'tsv') return 'csv';
  if (ext === 'jsonl' || ext === 'ndjson') return 'jsonl';
  if (ext === 'zip') return 'zip';
  return 'txt';
}

const HEAD_BYTES = 64 * 1024;

/** Pick a file (or paste ids), choose how it is read, and read it: nothing is spent here. */
export function ReadForm({ kind, onRead }: { kind: LookupKind; onRead: (importId: string) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [format, setFormat] = useState<Format>('txt');
  const [preview, setPreview] = useState<IdFilePreview | null>(null);
  const [column, setColumn] = useState<number>(0);
  const [header, setHeader] = useState(true);
  const [path, setPath] = useState('id');
  const [pasted, setPasted] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  const [empty, setEmpty] = useState<IdImport | null>(null);
  /** why a zip gave no ids to read (none of this kind, cut short, too big) */
  const [unpacked, setUnpacked] = useState<string | null>(null);
  const read = useReadIdList();

  const choose = async (f: File | null) => {
    setFile(f);
    setPreview(null);
    setEmpty(null);
    setUnpacked(null);
    if (!f) return;
    const fmt = formatOf(f.name);
    setFormat(fmt);
    if (fmt === 'csv') {
      const head = await f.slice(0, HEAD_BYTES).text();
      const p = await skein().ids.preview({ entity: kind, head: head.slice(0, HEAD_BYTES) });
      setPreview(p);
      setColumn(p.suggested ?? 0);
    }
  };

  const source = (): IdSource => {
    if (!file) return { format: 'paste' };
    if (format === 'csv') return { format: 'csv', column, header, delimiter: preview?.delimiter };
    if (format === 'jsonl') return { format: 'jsonl', path: path.trim() };
    return { format: 'txt' };
  };

  const submit = async () => {
    setEmpty(null);
    setUnpacked(null);
    setProgress(0);
    let label = file ? file.name.slice(0, 200) : 'Pasted ids';
    let content: Blob | string = file ?? pasted;
    if (file && format === 'zip') {
      const ids = await idsFromPackage(file, kind);
      if (!ids.ok) {
        setProgress(null);
        return setUnpacked(ids.problem);
      }
      label = `${file.name} › ${ids.file}`.slice(0, 200);
      content = ids.text;
    }
    read.mutate(
      {
        entity: kind,
        label,
        source: source(),
        content,
        onProgress: setProgress,
      },
      {
        onSuccess: (list) => (list.sealed ? onRead(list.importId) : setEmpty(list)),
        onSettled: () => setProgress(null),
      },
    );
  };

  const what = kind === 'posts' ? 'post ids' : 'user ids';
  return (
    <form
      className="hydrate-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (file || pasted.trim()) void submit();
      }}
    >
      <p className="note">
        Datasets are shared as ids only. Read a list here first: ids a spreadsheet damaged and anything that is not an
        id are refused and listed before anything is spent.
      </p>
      <label className="field">
        <span>A file of {what} (.txt one per line, .csv or .tsv, .jsonl, or a package for re-hydration .zip)</span>
        <input
          type="file"
          accept=".txt,.csv,.tsv,.jsonl,.ndjson,.zip,text/plain,text/csv,application/zip"
          onChange={(e) => void choose(e.target.files?.[0] ?? null)}
        />
      </label>
      {file && format === 'csv' && preview ? (
        <fieldset className="hydrate-form__csv">
          <legend>Which column holds the ids</legend>
          <label className="field">
            <span>Column</span>
            <select value={column} onChange={(e) => setColumn(Number(e.target.value))}>
              {preview.columns.map((c, i) => (
                <option key={i} value={i}>
                  {header ? c || `Column ${i + 1}` : `Column ${i + 1}`}
                </option>
              ))}
            </select>
          </label>
          <label className="check">
            <input type="checkbox" checked={header} onChange={(e) => setHeader(e.target.checked)} /> The first row names
            the columns
          </label>
          <table className="hydrate-preview" aria-label="First rows of the file">
            <tbody>
              {[preview.columns, ...preview.rows].slice(0, 6).map((row, r) => (
                <tr key={r}>
                  {row.map((cell, c) => (
                    <td key={c} className={c === column ? 'hydrate-preview__picked' : undefined}>
                      {cell.slice(0, 40)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </fieldset>
      ) : null}
      {file && format === 'jsonl' ? (
        <label className="field">
          <span>Field that holds the id (a dotted path, e.g. id or item.author.id)</span>
          <input className="input" value={path} onChange={(e) => setPath(e.target.value)} spellCheck={false} />
        </label>
      ) : null}
      {!file ? (
        <label className="field">
          <span>Or paste {what}</span>
          <textarea
            className="textarea"
            value={pasted}
            onChange={(e) => setPasted(e.target.value)}
            spellCheck={false}
            placeholder={kind === 'posts' ? '1850000000000000001\n1850000000000000002' : '44196397\n783214'}
          />
        </label>
      ) : null}
      <div className="hydrate-form__actions">
        <button type="submit" className="btn btn--primary" disabled={(!file && !pasted.trim()) || read.isPending}>
          Read the ids
        </button>
        {progress !== null ? <span role="status">Reading… {Math.round(progress * 100)}%</span> : null}
      </div>
      {unpacked ? (
        <p role="alert" className="error-text">
          {unpacked}
        </p>
      ) : null}
      {read.error ? (
        <p role="alert" className="error-text">
          {read.error.message}
        </p>
      ) : null}
      {empty ? (
        <div role="alert" className="hydrate-empty">
          <p>No {what} were found in it, so there is nothing to hydrate.</p>
          {empty.report ? <ReadReport report={empty.report} /> : null}
        </div>
      ) : null}
    </form>
  );
}
