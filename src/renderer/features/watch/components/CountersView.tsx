import { useQuery } from '@tanstack/react-query';
import { Chart, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import { useEffect, useMemo, useRef, useState } from 'react';
import { ErrorState } from '../../../components/ErrorState';
import { ViewFrame } from '../../../components/ViewFrame';
import { formatRoute, routes, type Route } from '../../../lib/routes';
import { countersQuery, useWatchEvents } from '../queries';
import { count, metricWords, metricsOf, steps, utcMinute } from '../words';
import { TableExports } from './TableExports';
import './watch.css';

Chart.register(LineController, LineElement, PointElement, LinearScale, Tooltip);

const css = (name: string, fallback: string) =>
  getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;

const KIND_WORDS = { post: 'Post', user: 'Account', community: 'Community', space: 'Space' } as const;

/** One counter as a stepped line (Chart.js on a canvas), and the same numbers as a table. */
function CounterChart({ points, label }: { points: Array<{ x: number; y: number }>; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current || points.length === 0) return;
    const chart = new Chart(canvas.current, {
      type: 'line',
      data: {
        datasets: [
          {
            label,
            data: points,
            stepped: 'before',
            borderColor: css('--accent', '#2563eb'),
            backgroundColor: css('--accent', '#2563eb'),
            pointRadius: 2,
          },
        ],
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        parsing: false,
        scales: {
          x: {
            type: 'linear',
            ticks: {
              color: css('--fg-muted', '#666'),
              maxTicksLimit: 6,
              callback: (v) => new Date(Number(v)).toISOString().slice(5, 16).replace('T', ' '),
            },
            grid: { display: false },
          },
          y: { ticks: { color: css('--fg-muted', '#666'), precision: 0 }, grid: { color: css('--border', '#ddd') } },
        },
      },
    });
    return () => chart.destroy();
  }, [points, label]);
  return (
    <div className="watch-counters__chart">
      <canvas
        ref={canvas}
        role="img"
        aria-label={`Line chart of ${label} over time (UTC); the table below has the numbers`}
      />
    </div>
  );
}

/**
 * An item's counters over time: what every watch's runs saw, each value from when it was first seen
 * to when it was last seen unchanged. The Archive view links here; the deltas table exports the same.
 */
export function CountersView({ route }: { route: Extract<Route, { name: 'counters' }> }) {
  useWatchEvents();
  const series = useQuery(countersQuery(route.kind, route.id));
  const metrics = useMemo(() => (series.data ? metricsOf(series.data) : []), [series.data]);
  const [picked, setPicked] = useState<string | null>(null);
  const metric = picked && metrics.includes(picked) ? picked : (metrics[0] ?? null);
  const points = useMemo(() => (series.data && metric ? steps(series.data, metric) : []), [series.data, metric]);
  const rows = series.data?.metrics.find((m) => m.metric === metric)?.points ?? [];
  return (
    <ViewFrame
      title={`${KIND_WORDS[route.kind]} ${route.id}: counters over time`}
      className="view--counters"
      actions={
        route.kind === 'post' ? (
          <a className="btn btn--small" href={formatRoute(routes.post(route.id))}>
            Open the post
          </a>
        ) : route.kind === 'user' ? (
          <a className="btn btn--small" href={formatRoute(routes.userById(route.id))}>
            Open the profile
          </a>
        ) : null
      }
    >
      <p className="view__intro">
        From the watches’ runs: a value is drawn from when it was first seen until it was last seen unchanged; the
        change happened between the two readings around it. Times in UTC.
      </p>
      {series.isError ? <ErrorState error={series.error} what="the counters" /> : null}
      {series.isSuccess && metrics.length === 0 ? (
        <p className="watch-empty">
          No watch has read this {KIND_WORDS[route.kind].toLowerCase()}’s counters yet. A watch that follows it (or
          re-reads its recent posts) keeps them run by run.
        </p>
      ) : null}
      {metrics.length > 0 && metric ? (
        <section className="watch-counters" aria-label="Counters">
          <div className="watch-counters__pick" role="group" aria-label="Counter">
            {metrics.map((m) => (
              <button
                key={m}
                type="button"
                className="btn btn--small"
                aria-pressed={m === metric}
                onClick={() => setPicked(m)}
              >
                {metricWords(m)}
              </button>
            ))}
          </div>
          <CounterChart points={points} label={metricWords(metric)} />
          <table className="watch-table" aria-label={`${metricWords(metric)} over time`}>
            <caption>
              {metricWords(metric)}: {rows.length} {rows.length === 1 ? 'value' : 'values'}
            </caption>
            <thead>
              <tr>
                <th scope="col">First seen</th>
                <th scope="col">Last seen</th>
                <th scope="col" className="num">
                  Value
                </th>
                <th scope="col" className="num">
                  Change
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((p, i) => {
                const before = rows[i - 1];
                return (
                  <tr key={p.at}>
                    <th scope="row">{utcMinute(p.at)}</th>
                    <td>{utcMinute(p.lastAt)}</td>
                    <td className="num">{count(p.value)}</td>
                    <td className="num">
                      {before ? `${p.value - before.value >= 0 ? '+' : ''}${count(p.value - before.value)}` : '—'}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <TableExports label="This item" item={{ kind: route.kind, id: route.id }} />
        </section>
      ) : null}
    </ViewFrame>
  );
}
