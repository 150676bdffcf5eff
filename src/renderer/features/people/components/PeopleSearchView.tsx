import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { User } from '../../../../shared/api/schemas';
import { navigate } from '../../../lib/navigation';
import { InfiniteFeed } from '../../../components/InfiniteFeed';
import { EmptyState } from '../../../components/states';
import { UserCard } from '../../../components/UserCard';
import { summarizePages } from '../../../lib/pages';
import { routes, type Route } from '../../../lib/routes';
import { ExportButton, pagedExportView } from '../../export';
import { peopleSearchQuery } from '../queries';

type SearchRoute = Extract<Route, { name: 'search' }>;

/** People search: ranked results with bio snippet and counts, infinite scroll. */
export function PeopleSearchView({ route }: { route: SearchRoute }) {
  const [text, setText] = useState(route.q);
  const q = route.q.trim();
  return (
    <div className="view view--search">
      <header className="view__header">
        <h1 tabIndex={-1}>Search people</h1>
      </header>
      <form
        role="search"
        aria-label="People"
        className="search-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim()) navigate(routes.search(text.trim()));
        }}
      >
        <input
          className="input"
          type="search"
          aria-label="Search people"
          placeholder="Name, handle or words from a bio"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <button type="submit" className="btn btn--primary" disabled={!text.trim()}>
          Search
        </button>
      </form>
      {q ? (
        <Results query={q} />
      ) : (
        <EmptyState title="Search for people by name, handle or bio">
          Results are ranked by relevance. To collect a dataset, open what you want (these results, a profile, a thread,
          a list or a community, or paste its link into the Go box) and use its Export… button: it shows the cost before
          anything is bought.
        </EmptyState>
      )}
    </div>
  );
}

function Results({ query }: { query: string }) {
  const result = useInfiniteQuery(peopleSearchQuery(query));
  const summary = useMemo(() => summarizePages<User>(result.data?.pages), [result.data]);
  return (
    <>
      <div className="toolbar" role="group" aria-label="Result options">
        <ExportButton
          view={pagedExportView('peopleSearch', { query }, result, summary.items.length, {
            title: `People matching “${query}”`,
          })}
        />
      </div>
      <InfiniteFeed
        query={result}
        summary={summary}
        rows={summary.items}
        getKey={(u) => u.id}
        renderRow={(u, i) => <UserCard user={u} rank={i + 1} />}
        label={`People matching “${query}”`}
        noun={{ one: 'person', many: 'people' }}
        empty={`Nobody matches “${query}”.`}
      />
    </>
  );
}
