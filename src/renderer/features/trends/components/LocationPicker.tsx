import { useId, useState, type FormEvent } from 'react';
import { fullCount } from '../../../lib/format';
import { PLACES, PLACE_GROUPS, knownPlace, parseCount, parseLocation } from '../woeids';

interface Props {
  woeid: number;
  count: number;
  onShow: (woeid: number, count: number) => void;
}

/** A place by name, or any WOEID typed in, and how many trends. */
export function LocationPicker({ woeid, count, onShow }: Props) {
  const [choice, setChoice] = useState(knownPlace(woeid) ? String(woeid) : '');
  const [typed, setTyped] = useState(knownPlace(woeid) ? '' : String(woeid));
  const [countText, setCountText] = useState(String(count));
  const [error, setError] = useState<{ field: 'place' | 'count'; message: string } | null>(null);
  const placeId = useId();
  const typedId = useId();
  const countId = useId();
  const errorId = useId();

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const place = parseLocation(typed.trim() ? typed : choice);
    if (!place.ok) return setError({ field: 'place', message: place.message });
    const n = parseCount(countText);
    if (!n.ok) return setError({ field: 'count', message: n.message });
    setError(null);
    onShow(place.value, n.value);
  };

  return (
    <form className="trends__picker" onSubmit={onSubmit} noValidate aria-label="Location">
      <div className="field">
        <label htmlFor={placeId}>Place</label>
        <select
          id={placeId}
          className="select"
          value={choice}
          onChange={(e) => {
            setChoice(e.target.value);
            setTyped('');
          }}
        >
          {choice === '' ? <option value="">Other (typed WOEID)</option> : null}
          {PLACE_GROUPS.map((g) => (
            <optgroup key={g.kind} label={g.label}>
              {PLACES.filter((p) => p.kind === g.kind).map((p) => (
                <option key={p.woeid} value={p.woeid}>
                  {p.name}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={typedId}>or WOEID / name</label>
        <input
          id={typedId}
          className="input trends__typed"
          value={typed}
          placeholder="e.g. 2459115"
          aria-invalid={error?.field === 'place' ? true : undefined}
          aria-describedby={error?.field === 'place' ? errorId : undefined}
          onChange={(e) => setTyped(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={countId}>Count</label>
        <input
          id={countId}
          className="input trends__count"
          inputMode="numeric"
          value={countText}
          aria-invalid={error?.field === 'count' ? true : undefined}
          aria-describedby={error?.field === 'count' ? errorId : undefined}
          onChange={(e) => setCountText(e.target.value)}
        />
      </div>
      <button type="submit" className="btn btn--primary">
        Show trends
      </button>
      {error ? (
        <p id={errorId} className="trends__error" role="alert">
          {error.message}
        </p>
      ) : (
        <p className="muted trends__hint">
          {fullCount(PLACES.length)} places by name; any other Where On Earth ID works too. One call per place and
          count.
        </p>
      )}
    </form>
  );
}
