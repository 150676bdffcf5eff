/**
 * Route `#/trends?woeid=N`: what is trending at a place, ranked, with each
 * trend's decoded search query. The API has no post search, so a trend
 * opens its search page in the system browser.
 */
import { useQuery } from '@tanstack/react-query';
import type { AnswerSnapshot } from '../../../../shared/ipc/api';
import { navigate } from '../../../lib/navigation';
import { ErrorState } from '../../../components/ErrorState';
import { ExternalLink } from '../../../components/ExternalLink';
import { EmptyState, SkeletonList } from '../../../components/states';
import { ViewFrame } from '../../../components/ViewFrame';
import { compactCount, fullCount } from '../../../lib/format';
import { routes, type Route } from '../../../lib/routes';
import { ExportButton, exportView } from '../../export';
import { CacheNote } from '../../../components/usage/CacheNote';
import { trendsQuery, useCountFor, useTrendsCount } from '../queries';
import { decodeTrendQuery, trendSearchUrl } from '../trend-query';
import { refreshNote, trendingAsOf } from '../as-of';
import { absoluteTime } from '../../../lib/time';
import { WORLDWIDE, placeName } from '../woeids';
import { LocationPicker } from './LocationPicker';
import './trends.css';

export function TrendsView({ route }: { route: Extract<Route, { name: 'trends' }> }) {
  const woeid = route.woeid ?? WORLDWIDE;
  const count = useCountFor(woeid);
  const choose = useTrendsCount((s) => s.choose);
  const q = useQuery(trendsQuery(woeid, count));
  const place = placeName(woeid);
  const view = q.data
    ? exportView(
        'trends',
        { woeid, count },
        { items: q.data.items.length, reachedEnd: true },
        { title: `Trends · ${place}` },
      )
    : null;

  return (
    <ViewFrame title={`Trends · ${place}`} className="view--trends" actions={<ExportButton view={view} />}>
      <LocationPicker
        key={`${woeid}-${count}`}
        woeid={woeid}
        count={count}
        onShow={(w, n) => {
          choose(w, n);
          navigate(routes.trends(w));
        }}
      />
      {q.status === 'pending' ? (
        <SkeletonList count={4} label={`Loading trends for ${place}…`} />
      ) : q.status === 'error' ? (
        <ErrorState error={q.error} what={`trends for ${place}`} onRetry={() => void q.refetch()} />
      ) : q.data.items.length === 0 ? (
        <EmptyState title={`No trends for ${place}`}>
          The API returned an empty list for WOEID {woeid}. It may not track this place.
        </EmptyState>
      ) : (
        <>
          <div className="trends__meta">
            <AsOf snapshot={q.data.snapshot} fetchedAt={q.data.meta.fetchedAt} />
            <CacheNote meta={q.data.meta} fetchedAfterMount={q.isFetchedAfterMount} />
          </div>
          <ol className="trends__list" aria-label={`Trends for ${place}, ranked`}>
            {q.data.items.map((t, i) => {
              const decoded = decodeTrendQuery(t.query);
              const url = trendSearchUrl(t.url);
              const volume = typeof t.tweet_volume === 'number' ? t.tweet_volume : null;
              // the live forms say how much is posted in words instead ("12K posts")
              const meta =
                typeof t.meta_description === 'string' && t.meta_description.trim() ? t.meta_description.trim() : null;
              return (
                <li key={`${i}-${t.name}`} className="trend">
                  <span className="trend__rank" aria-hidden="true">
                    {i + 1}
                  </span>
                  <div className="trend__body">
                    <span className="trend__name" dir="auto">
                      {t.name}
                    </span>
                    <span className="trend__query muted">
                      Search: <code dir="auto">{decoded}</code>
                    </span>
                    {volume !== null ? (
                      <span className="trend__volume muted" title={`${fullCount(volume)} posts`}>
                        {compactCount(volume)} posts
                      </span>
                    ) : meta ? (
                      <span className="trend__volume muted" dir="auto">
                        {meta}
                      </span>
                    ) : null}
                  </div>
                  {url ? (
                    <ExternalLink
                      href={url}
                      className="btn btn--small trend__open"
                      label={`Search “${decoded}” in the browser`}
                    >
                      Open search
                    </ExternalLink>
                  ) : (
                    <span className="muted trend__open">No usable link</span>
                  )}
                </li>
              );
            })}
          </ol>
        </>
      )}
    </ViewFrame>
  );
}

/** "Trending worldwide as of 00:40 UTC · renewed every 5 minutes": the answer's own time and place */
function AsOf({ snapshot, fetchedAt }: { snapshot: AnswerSnapshot | undefined; fetchedAt: number }) {
  const said = trendingAsOf(snapshot, fetchedAt);
  if (!said) return null;
  const every = refreshNote(snapshot);
  return (
    <p className="trends__as-of" aria-label="Trends as of">
      <strong>
        {snapshot?.asOf ? (
          <time dateTime={new Date(snapshot.asOf).toISOString()} title={`${absoluteTime(snapshot.asOf)} (your time)`}>
            {said}
          </time>
        ) : (
          said
        )}
      </strong>
      {every ? <span className="muted"> · {every}</span> : null}
    </p>
  );
}
