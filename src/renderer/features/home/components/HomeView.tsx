import { useQuery } from '@tanstack/react-query';
import type { DemoExamples } from '../../../../shared/ipc/app';
import { appInfoQuery } from '../../../lib/app-info';
import { demoExamplesQuery } from '../queries';
import { ErrorState } from '../../../components/ErrorState';
import { SkeletonList } from '../../../components/states';
import { formatRoute, routes, type Route } from '../../../lib/routes';
import { useNames } from '../../../state/names';
import { JobCards } from './JobCards';
import './home.css';

interface Start {
  title: string;
  text: string;
  route: Route;
  /** the name this card shows for what it opens, carried to the view when the API cannot name it */
  names?: { kind: 'list'; id: string; name: string };
}

function startingPoints(ex: DemoExamples): Start[] {
  return [
    {
      title: 'A big thread',
      text: 'Ten thousand replies, threaded: collapse branches, switch to flat, scroll to the end.',
      route: routes.post(ex.bigThreadPostId),
    },
    {
      title: 'A much-quoted post',
      text: 'Quotes with their commentary, each with the quoted post nested.',
      route: routes.post(ex.muchQuotedPostId, 'quotes'),
    },
    {
      title: 'A post with media',
      text: 'A photo grid with alt text, a lightbox and original sizes.',
      route: routes.post(ex.mediaPostId),
    },
    {
      title: `A profile: @${ex.profile.userName}`,
      text: 'Bio with links, counts, pinned posts and the timeline.',
      route: routes.userById(ex.profile.id),
    },
    {
      title: `Mentions of @${ex.profile.userName}`,
      text: 'Posts mentioning this account, newest first.',
      route: routes.userById(ex.profile.id, 'mentions'),
    },
    {
      title: 'A community',
      text: 'Banner, rules, member counts and what the API does not offer yet.',
      route: routes.community(ex.communityId),
    },
    {
      title: ex.listName ? `A list: ${ex.listName}` : 'A list',
      text: 'The list’s posts and followers.',
      route: routes.list(ex.listId),
      ...(ex.listName ? { names: { kind: 'list' as const, id: ex.listId, name: ex.listName } } : {}),
    },
    {
      title: 'A live audio space',
      text: 'Participants that change while you watch.',
      route: routes.space(ex.runningSpaceId),
    },
    { title: 'Trends', text: 'What is trending worldwide and by place.', route: routes.trends(1) },
    { title: 'Search people', text: 'Ranked people search with bios and counts.', route: routes.search('data') },
  ];
}

/** Home: in demo mode, guided starting points through everything the app shows. */
export function HomeView() {
  const info = useQuery(appInfoQuery());
  const demo = info.data?.mode === 'demo';
  const examples = useQuery({ ...demoExamplesQuery(), enabled: demo });
  const remember = useNames((s) => s.remember);
  return (
    <div className="view view--home">
      <header className="view__header">
        <h1 tabIndex={-1}>Home</h1>
        {info.data ? (
          <span className="chip">{demo ? 'Demo mode: sample data, no key needed' : 'Live mode'}</span>
        ) : null}
      </header>
      <p className="view__intro">
        Paste a post or profile link, an <code>@handle</code>, or a community, list or space id into the Go box (press{' '}
        <kbd>/</kbd>). Use <kbd>j</kbd>/<kbd>k</kbd> to move between posts, <kbd>Enter</kbd> to open, <kbd>Esc</kbd> to
        go back.
      </p>
      {info.status === 'error' ? <ErrorState error={info.error} onRetry={() => void info.refetch()} /> : null}
      {info.data ? <JobCards mode={info.data.mode} /> : null}
      {demo ? (
        examples.status === 'pending' ? (
          <SkeletonList count={3} label="Loading starting points…" />
        ) : examples.status === 'error' ? (
          <ErrorState error={examples.error} what="starting points" onRetry={() => void examples.refetch()} />
        ) : examples.data ? (
          <section aria-labelledby="start-here">
            <h2 id="start-here" className="section-title">
              Or explore the demo world
            </h2>
            <ul className="starts">
              {startingPoints(examples.data).map((s) => (
                <li key={s.title}>
                  <a
                    className="start"
                    href={formatRoute(s.route)}
                    onClick={() => {
                      if (s.names) remember(s.names.kind, s.names.id, s.names.name);
                    }}
                  >
                    <span className="start__title">{s.title}</span>
                    <span className="start__text">{s.text}</span>
                  </a>
                </li>
              ))}
            </ul>
          </section>
        ) : null
      ) : info.data ? (
        <section aria-labelledby="live-start">
          <h2 id="live-start" className="section-title">
            Or explore
          </h2>
          <ul className="starts">
            <li>
              <a className="start" href={formatRoute(routes.search())}>
                <span className="start__title">Search people</span>
                <span className="start__text">Find accounts by name, handle or bio.</span>
              </a>
            </li>
            <li>
              <a className="start" href={formatRoute(routes.lookup())}>
                <span className="start__title">Look up ids</span>
                <span className="start__text">Paste post or user ids, or post links.</span>
              </a>
            </li>
            <li>
              <a className="start" href={formatRoute(routes.trends(1))}>
                <span className="start__title">Trends</span>
                <span className="start__text">What is trending, worldwide or by place.</span>
              </a>
            </li>
          </ul>
        </section>
      ) : null}
    </div>
  );
}
