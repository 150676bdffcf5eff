import type { SearchTerms as Terms } from '../search-terms';

/**
 * What the search box holds, as the archive reads it: a chip per term (removing one searches without it), or
 * why the text cannot be read, in plain words under the box.
 */
export function SearchTerms({
  terms,
  errorId,
  onRemove,
}: {
  terms: Terms;
  /** the error's element id, which the box names as its description */
  errorId: string;
  onRemove: (without: string) => void;
}) {
  if (!terms.ok)
    return (
      <p id={errorId} className="search-terms__error" role="alert">
        {terms.message}
      </p>
    );
  if (terms.chips.length === 0) return null;
  return (
    <ul className="search-terms" aria-label="Search terms">
      {terms.chips.map((chip, i) => (
        <li key={`${i}:${chip.label}`} className="chip search-terms__chip">
          <span>{chip.label}</span>
          <button
            type="button"
            className="search-terms__remove"
            aria-label={`Remove ${chip.label}`}
            onClick={() => onRemove(chip.without)}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
