import { useQuery } from '@tanstack/react-query';
import { Fragment, useMemo, useState } from 'react';
import { navigate } from '../../../lib/navigation';
import { appInfoQuery } from '../../../lib/app-info';
import { formatRoute, routes, type Route } from '../../../lib/routes';
import { EMPTY_FORM, toQuery, utcOffsetMinutes, type ArchiveForm, type Span } from '../filters';
import { ActivityChart } from './ActivityChart';
import { ArchiveExport } from './ArchiveExport';
import { CopyAsScript } from './CopyAsScript';
import { ArchiveFilters } from './ArchiveFilters';
import { ArchiveResults } from './ArchiveResults';
import { KeepMedia } from './KeepMedia';
import { KeepPages } from './KeepPages';
import { TableExports, watchListQuery } from '../../watch';
import { ProjectPanel } from './ProjectPanel';
import { RefreshSearch } from './RefreshSearch';
import { SaveSearch } from './SaveSearch';
import { SearchTerms } from './SearchTerms';
import { searchTerms } from '../search-terms';
import './archive.css';

type ArchiveRoute = Extract<Route, { name: 'archive' }>;

/**
 * The Archive: everything this project kept, searched offline. Full-text over post text,
 * authors and bios, filters, sort, the activity of the result set; nothing here calls the API.
 */
export function ArchiveView({ route }: { route: ArchiveRoute }) {
  const info = useQuery(appInfoQuery());
  const watches = useQuery(watchListQuery());
  const demo = info.data?.mode === 'demo';
  const [text, setText] = useState(route.q);
  // opened on one collection (a watch's "Open in the Archive"): its filter set, to clear like any other
  const [form, setForm] = useState<ArchiveForm>(() =>
    route.collection === undefined ? EMPTY_FORM : { ...EMPTY_FORM, collection: String(route.collection) },
  );
  const [span, setSpan] = useState<{ span: Span; label: string } | null>(null);
  const base = useMemo(() => toQuery(route.q, form), [route.q, form]);
  const query = useMemo(() => toQuery(route.q, form, span?.span ?? null), [route.q, form, span]);
  const offset = utcOffsetMinutes(form.zone);
  // read as typed: chips for the terms, or where the text cannot be read
  const terms = useMemo(() => searchTerms(text), [text]);
  const search = (next: string) => {
    setSpan(null);
    navigate(routes.archive(next.trim()), { replace: true });
  };
  return (
    <div className="view view--archive">
      <header className="view__header">
        <h1 tabIndex={-1}>Archive</h1>
      </header>
      <ProjectPanel demo={demo} />
      <form
        role="search"
        aria-label="Archive"
        className="search-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (terms.ok) search(text);
        }}
      >
        <input
          className="input"
          type="search"
          aria-label="Search the archive"
          placeholder="Words, “phrases”, OR, -word, from:handle, has:media…"
          value={text}
          maxLength={500}
          aria-invalid={!terms.ok}
          aria-describedby={terms.ok ? undefined : 'archive-search-error'}
          onChange={(e) => setText(e.target.value)}
        />
        <button type="submit" className="btn btn--primary">
          Search
        </button>
      </form>
      <SearchTerms
        terms={terms}
        errorId="archive-search-error"
        onRemove={(without) => {
          setText(without);
          search(without);
        }}
      />
      <ArchiveFilters
        form={form}
        onChange={(patch) => {
          setSpan(null);
          setForm((f) => ({ ...f, ...patch }));
        }}
      />
      <ActivityChart
        query={base}
        bucket={form.bucket}
        utcOffsetMinutes={offset}
        onSelect={(s, label) => setSpan({ span: s, label })}
      />
      {span ? (
        <p className="archive-span">
          Showing <strong>{span.label}</strong>{' '}
          <button type="button" className="btn btn--small" onClick={() => setSpan(null)}>
            Show all dates
          </button>
        </p>
      ) : null}
      <div className="archive-actions">
        <ArchiveExport query={query} />
        <SaveSearch query={query} suggested={route.q ? `Search: ${route.q}` : 'Everything'} />
        <CopyAsScript query={query} />
      </div>
      {query.collection !== undefined ? (
        // one set per collection: a collection chosen afresh starts them anew
        <Fragment key={query.collection}>
          <RefreshSearch collection={query.collection} />
          {/* side by side, so the results keep their room below */}
          <div className="archive-keeps">
            <KeepMedia collection={query.collection} />
            <KeepPages collection={query.collection} />
            {/* its ids for re-hydration, or its items pseudonymised for review, each with a README and a citation */}
            <section className="keep-media" aria-label="Share or cite">
              <a className="btn" href={formatRoute(routes.coding('files', query.collection))}>
                Share or cite this collection…
              </a>
            </section>
          </div>
        </Fragment>
      ) : null}
      {watches.data && watches.data.watches.length > 0 ? (
        <TableExports label="Counters and disappearances (the watches’ tables)" />
      ) : null}
      <ArchiveResults query={query} />
    </div>
  );
}
