import { ErrorState } from '../../../components/ErrorState';
import { clockTime } from '../../../lib/time';
import type { ExportJob } from '../../../../shared/ipc/export';
import { unrecordedWords } from '../form';
import { useExportActions } from '../queries';

/**
 * Under a written export the project could not keep as a collection (its server away): why, and a button that
 * keeps it now from what main saved of it, with no call. Said again if the project still cannot.
 */
export function KeepInProject({ job }: { job: ExportJob }) {
  const { record } = useExportActions();
  const words = unrecordedWords(job);
  if (!words) return null;
  return (
    <section className="export__unrecorded" aria-label="Not kept in the project">
      <p role="alert">{words.text}</p>
      <p className="muted">{words.action}</p>
      <div className="export__buttons">
        <button
          type="button"
          className="btn btn--primary"
          onClick={() => record.mutate(job.id)}
          disabled={record.isPending}
        >
          {record.isPending ? 'Keeping it in the project…' : 'Keep it in the project'}
        </button>
      </div>
      {record.isSuccess && record.data.unrecorded ? (
        // the same words as before: without this a try that failed alike would look like no try at all
        <p role="status">Tried again at {clockTime(record.submittedAt)}: the project still could not keep it.</p>
      ) : null}
      {record.isError ? <ErrorState compact error={record.error} what="keeping the export in the project" /> : null}
    </section>
  );
}
