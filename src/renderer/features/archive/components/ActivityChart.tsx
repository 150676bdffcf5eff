import { useQuery } from '@tanstack/react-query';
import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';
import { useEffect, useMemo, useRef } from 'react';
import type { ActivityBucket, ArchiveQuery } from '../../../../shared/ipc/archive';
import { barLabel, barSpan } from '../activity';
import type { Span } from '../filters';
import { archiveActivityQuery } from '../queries';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

const css = (name: string, fallback: string) =>
  getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;

interface Props {
  query: ArchiveQuery;
  bucket: ActivityBucket;
  utcOffsetMinutes: number;
  onSelect: (span: Span, label: string) => void;
}

/**
 * Items per hour, day or week of the result set, zero-filled (Chart.js on a canvas), with the same
 * numbers as a table for screen readers and keyboards; a bar or a row picked narrows the results.
 */
export function ActivityChart({ query, bucket, utcOffsetMinutes, onSelect }: Props) {
  const activity = useQuery(archiveActivityQuery({ ...query, bucket, utcOffsetMinutes }));
  const canvas = useRef<HTMLCanvasElement>(null);
  const buckets = useMemo(() => activity.data?.buckets ?? [], [activity.data]);
  const labels = useMemo(
    () => buckets.map((b) => barLabel(b.start, bucket, utcOffsetMinutes)),
    [buckets, bucket, utcOffsetMinutes],
  );
  const select = useRef(onSelect);
  useEffect(() => {
    select.current = onSelect;
  }, [onSelect]);

  useEffect(() => {
    if (!canvas.current || buckets.length === 0) return;
    const chart = new Chart(canvas.current, {
      type: 'bar',
      data: {
        labels,
        datasets: [
          {
            label: 'Items',
            data: buckets.map((b) => b.count),
            backgroundColor: css('--accent', '#2563eb'),
            borderRadius: 2,
            maxBarThickness: 40,
          },
        ],
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        scales: {
          x: { ticks: { color: css('--fg-muted', '#666'), maxRotation: 0, autoSkip: true }, grid: { display: false } },
          y: {
            beginAtZero: true,
            ticks: { color: css('--fg-muted', '#666'), precision: 0 },
            grid: { color: css('--border', '#ddd') },
          },
        },
        onClick: (event, elements) => {
          const index = elements[0]?.index;
          const b = index === undefined ? undefined : buckets[index];
          if (b && index !== undefined) select.current(barSpan(b.start, bucket), labels[index] ?? '');
          void event;
        },
      },
    });
    return () => chart.destroy();
  }, [buckets, labels, bucket]);

  if (activity.status !== 'success') return null;
  const data = activity.data;
  if (data.total === 0) return null;
  const summary = `${data.total} ${data.total === 1 ? 'item' : 'items'}${data.undated > 0 ? `, ${data.undated} without a plausible date` : ''}, by ${bucket}${utcOffsetMinutes === 0 ? ' (UTC)' : ' (local time)'}`;
  return (
    <section className="archive-activity" aria-label="Activity">
      <h2 className="archive-activity__title">Activity: {summary}</h2>
      <div className="archive-activity__canvas">
        <canvas ref={canvas} role="img" aria-label={`Bar chart of ${summary}; the table below has the numbers`} />
      </div>
      {data.truncated ? <p className="archive-activity__note">Only the latest 2,000 {bucket}s are drawn.</p> : null}
      <details className="archive-activity__table">
        <summary>Table of the chart</summary>
        <table>
          <caption className="visually-hidden">Items per {bucket}</caption>
          <thead>
            <tr>
              <th scope="col">{bucket === 'hour' ? 'Hour' : bucket === 'day' ? 'Day' : 'Week'}</th>
              <th scope="col">Items</th>
              <th scope="col">
                <span className="visually-hidden">Filter</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {buckets.map((b, i) => (
              <tr key={b.start}>
                <th scope="row">{labels[i]}</th>
                <td>{b.count}</td>
                <td>
                  <button
                    type="button"
                    className="btn btn--small"
                    disabled={b.count === 0}
                    onClick={() => onSelect(barSpan(b.start, bucket), labels[i] ?? '')}
                  >
                    Show these
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}
