import { useQuery } from '@tanstack/react-query';
import type { Mode } from '../../../../shared/ipc/app';
import { projectsQuery } from '../../archive';
import { jobs } from '../jobs';
import { projectStanding, standingQuery } from '../queries';

const UNKNOWN = {
  collections: null,
  watches: null,
  idLists: null,
  coding: null,
} as const;

/** Home's question: what do you want to do? One card per research job, each with where the person stands. */
export function JobCards({ mode }: { mode: Mode }) {
  // "next run in 3 h" is said as of when the project was read, and read again with it
  const standing = useQuery(standingQuery(mode));
  const projects = useQuery(projectsQuery());
  const known = { ...(standing.data ?? UNKNOWN), project: projectStanding(projects.data, mode) };
  return (
    <section aria-labelledby="jobs-title">
      <h2 id="jobs-title" className="section-title">
        What do you want to do?
      </h2>
      <ul className="starts starts--jobs">
        {jobs(known, standing.dataUpdatedAt).map((job) => (
          <li key={job.id}>
            <a
              className="start start--job"
              href={job.href}
              aria-labelledby={`job-${job.id}-title`}
              aria-describedby={`job-${job.id}-steps job-${job.id}-standing`}
            >
              <span className="start__title" id={`job-${job.id}-title`}>
                {job.title}
              </span>
              <span className="start__text" id={`job-${job.id}-steps`}>
                {job.steps[0]} {job.steps[1]}
              </span>
              <span className="start__standing" id={`job-${job.id}-standing`}>
                {job.standing ?? (standing.isPending ? 'Reading the project…' : '')}
              </span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
