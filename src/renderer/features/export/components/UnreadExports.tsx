import { stamp } from '../../../lib/time';
import { fileName } from '../form';
import { useUnreadExports } from '../queries';

/**
 * Exports whose saved progress this Skein cannot read (a newer Skein's, after going back to this one, or damaged):
 * said, with where they are kept, rather than left out of the lists without a word. Nothing here resumes or
 * deletes them: their journals hold pages paid for, which the newer Skein goes on from.
 */
export function UnreadExports() {
  const unread = useUnreadExports();
  const jobs = unread.data?.jobs ?? [];
  if (!unread.data || jobs.length === 0) return null;
  const many = jobs.length > 1;
  return (
    <section className="export__unfinished" aria-label="Exports this Skein cannot read">
      <h3>Exports this Skein cannot read</h3>
      <p className="muted">
        {many ? `${jobs.length} exports were` : 'An export was'} saved by a newer Skein, or {many ? 'are' : 'is'}{' '}
        damaged. {many ? 'They are' : 'It is'} kept as {many ? 'they were' : 'it was'}, in{' '}
        <span className="export__path">{unread.data.folder}</span>: a newer Skein goes on from where{' '}
        {many ? 'they' : 'it'} stopped, and nothing here deletes {many ? 'them' : 'it'}.
      </p>
      <ul>
        {jobs.map((j) => (
          <li key={j.id}>
            <span>
              <strong>{j.file === null ? 'A file this Skein cannot name' : fileName(j.file)}</strong>
              <br />
              <span className="muted">
                {j.startedAt === null ? 'Begun at a time this Skein cannot read' : `Begun ${stamp(j.startedAt)}`} ·
                folder {j.id}
              </span>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
