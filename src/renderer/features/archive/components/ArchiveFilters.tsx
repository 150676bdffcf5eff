import { useQuery } from '@tanstack/react-query';
import type { ActivityBucket } from '../../../../shared/ipc/archive';
import type { ArchiveForm, Tri } from '../filters';
import { collectionsQuery } from '../queries';

const TRI_LABEL: Record<Tri, string> = { any: 'Any', only: 'Only', none: 'None' };
const FLAGS = [
  ['media', 'Has media'],
  ['reply', 'Replies'],
  ['quote', 'Quotes'],
  ['retweet', 'Reposts'],
] as const;

/** Filters of the Archive view: every control labelled, each change a new offline query. */
export function ArchiveFilters({
  form,
  onChange,
}: {
  form: ArchiveForm;
  onChange: (patch: Partial<ArchiveForm>) => void;
}) {
  const collections = useQuery(collectionsQuery());
  return (
    <fieldset className="archive-filters">
      <legend className="visually-hidden">Filters</legend>
      <label className="field">
        <span>Kind</span>
        <select
          className="select"
          value={form.kind}
          onChange={(e) => onChange({ kind: e.target.value === 'user' ? 'user' : 'post' })}
        >
          <option value="post">Posts</option>
          <option value="user">People</option>
        </select>
      </label>
      <label className="field">
        <span>From</span>
        <input className="input" type="date" value={form.from} onChange={(e) => onChange({ from: e.target.value })} />
      </label>
      <label className="field">
        <span>To</span>
        <input className="input" type="date" value={form.to} onChange={(e) => onChange({ to: e.target.value })} />
      </label>
      <label className="field">
        <span>Author</span>
        <input
          className="input"
          value={form.author}
          placeholder="@handle"
          maxLength={64}
          onChange={(e) => onChange({ author: e.target.value })}
        />
      </label>
      <label className="field">
        <span>Language</span>
        <input
          className="input archive-filters__short"
          value={form.lang}
          placeholder="en"
          maxLength={16}
          onChange={(e) => onChange({ lang: e.target.value })}
        />
      </label>
      <label className="field">
        <span>Collection</span>
        <select className="select" value={form.collection} onChange={(e) => onChange({ collection: e.target.value })}>
          <option value="">All items</option>
          {(collections.data ?? []).map((c) => (
            <option key={c.id} value={String(c.id)}>
              {c.name} ({c.kind === 'search' ? 'saved search, ' : ''}
              {c.items}
              {c.researcher ? `, by ${c.researcher}` : ''})
            </option>
          ))}
        </select>
      </label>
      {form.kind === 'post'
        ? FLAGS.map(([key, label]) => (
            <label className="field" key={key}>
              <span>{label}</span>
              <select className="select" value={form[key]} onChange={(e) => onChange({ [key]: e.target.value as Tri })}>
                {(Object.keys(TRI_LABEL) as Tri[]).map((t) => (
                  <option key={t} value={t}>
                    {TRI_LABEL[t]}
                  </option>
                ))}
              </select>
            </label>
          ))
        : null}
      <label className="field">
        <span>Sort</span>
        <select
          className="select"
          value={form.sort}
          onChange={(e) => onChange({ sort: e.target.value === 'engagement' ? 'engagement' : 'time' })}
        >
          <option value="time">Newest first</option>
          <option value="engagement">{form.kind === 'post' ? 'Most engagement' : 'Most followers'}</option>
        </select>
      </label>
      <label className="field">
        <span>Time zone</span>
        <select
          className="select"
          value={form.zone}
          onChange={(e) => onChange({ zone: e.target.value === 'local' ? 'local' : 'utc' })}
        >
          <option value="utc">UTC</option>
          <option value="local">Local time</option>
        </select>
      </label>
      <label className="field">
        <span>Chart by</span>
        <select
          className="select"
          value={form.bucket}
          onChange={(e) => onChange({ bucket: e.target.value as ActivityBucket })}
        >
          <option value="hour">Hour</option>
          <option value="day">Day</option>
          <option value="week">Week</option>
        </select>
      </label>
    </fieldset>
  );
}
