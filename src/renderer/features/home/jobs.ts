/**
 * The research jobs Home offers, each with its first screen, its steps in two lines, and where the person stands
 * in it, read from the project of the mode Skein is in. Pure: the cards' words are tested without a window.
 */
import { formatRoute, routes } from '../../lib/routes';

/** What Home knows of the project, each part null while it is not known (still loading, or it failed). */
export interface Standing {
  collections: number | null;
  watches: { total: number; active: number; nextRunAt: number | null } | null;
  idLists: { lists: number; ids: number } | null;
  coding: { codebooks: number; coders: number } | null;
  /** the project what is collected goes to; `demo`: the demo project, kept apart from live ones */
  project: { name: string; team: boolean; location: string; demo: boolean } | null;
}

export interface Job {
  id: 'collect' | 'watch' | 'hydrate' | 'code' | 'share' | 'team';
  title: string;
  /** the job's steps, in two short lines */
  steps: [string, string];
  href: string;
  /** where the person stands, in words (null: not known yet) */
  standing: string | null;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** When a watch runs next, as a person reads it ("in 3 h", "due now"). */
export function nextRun(at: number | null, now: number): string {
  if (at === null) return 'no run planned';
  const minutes = Math.round((at - now) / 60_000);
  if (minutes <= 0) return 'next run due now';
  if (minutes < 60) return `next run in ${minutes} min`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `next run in ${hours} h` : `next run in ${Math.round(hours / 24)} days`;
}

/** a card's standing: unknown while its part is not read, the empty words when there is nothing yet */
function standing<T>(part: T | null, empty: (p: T) => boolean, none: string, some: (p: T) => string): string | null {
  if (part === null) return null;
  return empty(part) ? none : some(part);
}

export function jobs(s: Standing, now: number): Job[] {
  return [
    {
      id: 'collect',
      title: 'Collect a dataset from a view',
      steps: [
        'Open a thread, profile, list or search result.',
        'Export it: see the cost first, then get JSON, CSV, Parquet or a network file.',
      ],
      href: formatRoute(routes.search()),
      standing: standing(
        s.collections,
        (n) => n === 0,
        'Nothing collected into this project yet.',
        (n) => `${plural(n, 'collection')} in this project.`,
      ),
    },
    {
      id: 'watch',
      title: 'Watch accounts over time',
      steps: [
        'Paste the accounts, choose until when and a budget.',
        'Skein collects on a schedule, never past the cap.',
      ],
      href: formatRoute(routes.watches()),
      standing: standing(
        s.watches,
        (w) => w.total === 0,
        'No watch yet.',
        (w) =>
          `${plural(w.total, 'watch', 'watches')}, ${w.active.toLocaleString()} active; ${nextRun(w.nextRunAt, now)}.`,
      ),
    },
    {
      id: 'hydrate',
      title: 'Hydrate a shared id list',
      steps: [
        'Open the id file a paper or colleague shared, and see what it would cost.',
        'Get the posts or accounts back, and a list of those that did not come back.',
      ],
      href: formatRoute(routes.hydrate()),
      standing: standing(
        s.idLists,
        (l) => l.lists === 0,
        'No id list opened yet.',
        (l) => `${plural(l.lists, 'id list')} with ${plural(l.ids, 'id')} opened.`,
      ),
    },
    {
      id: 'code',
      title: 'Code a sample with a colleague',
      steps: ['Write a codebook, add the coders, draw a sample.', 'Code blind, see the agreement, reconcile.'],
      href: formatRoute(routes.coding(s.coding && s.coding.codebooks > 0 ? 'code' : 'codebook')),
      standing: standing(
        s.coding,
        (c) => c.codebooks === 0,
        'No codebook yet: start with one.',
        (c) => `${plural(c.codebooks, 'codebook')}, ${plural(c.coders, 'coder')}.`,
      ),
    },
    {
      id: 'share',
      title: 'Share or cite a dataset',
      steps: [
        'Make a package for review, or one others can hydrate again.',
        'Each comes with a README and a citation.',
      ],
      href: formatRoute(routes.coding('files')),
      standing: standing(
        s.collections,
        (n) => n === 0,
        'Collect something first: a package is made from the project.',
        (n) => `${plural(n, 'collection')} ready to share.`,
      ),
    },
    {
      id: 'team',
      title: 'Work as a team',
      steps: [
        'Put this project on your lab’s PostgreSQL, or join the team’s.',
        'Everyone’s collections land in one project, each signed.',
      ],
      href: formatRoute(routes.archive()),
      standing:
        s.project === null
          ? null
          : s.project.demo
            ? 'Demo data stays on this computer; set up a team project now and work in it live.'
            : s.project.team
              ? `“${s.project.name}” is a team project (${s.project.location}).`
              : `“${s.project.name}” is a file on this computer only.`,
    },
  ];
}
