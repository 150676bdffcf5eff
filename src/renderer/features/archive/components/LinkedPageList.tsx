import { useQuery } from '@tanstack/react-query';
import { ErrorState } from '../../../components/ErrorState';
import { ExternalLink } from '../../../components/ExternalLink';
import { pageRowWords } from '../keep-pages';
import { pagesListQuery } from '../queries';

/**
 * Each linked page of a collection that was tried, as a list: its address (as text: it is the post's, not
 * ours), whether it is kept here or why not, and its capture at the web archive (a link the system browser
 * opens) or why there is none.
 */
export function LinkedPageList({ collection }: { collection: number }) {
  const list = useQuery(pagesListQuery(collection));
  if (list.isError) return <ErrorState compact error={list.error} what="the list of linked pages" />;
  if (!list.data || list.data.length === 0) return null;
  return (
    <details className="keep-pages__list">
      <summary>Each linked page ({list.data.length.toLocaleString('en')})</summary>
      <ul className="keep-media__mismatches" aria-label="Linked pages">
        {list.data.map((r) => {
          const words = pageRowWords(r);
          return (
            <li key={r.url}>
              <span className="keep-media__detail">{r.url}</span>
              <span>{words.kept}</span>
              {words.saved ? (
                <span className="keep-media__detail">
                  {words.saved}{' '}
                  {r.save?.captureUrl ? (
                    <ExternalLink href={r.save.captureUrl} label={`The web archive’s capture of ${r.url}`}>
                      {r.save.captureUrl}
                    </ExternalLink>
                  ) : null}
                </span>
              ) : null}
            </li>
          );
        })}
      </ul>
    </details>
  );
}
