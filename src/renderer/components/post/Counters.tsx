import { compactCount, fullCount, readCount } from '../../lib/format';
import type { CardPost } from '../../../shared/api/schemas';

const COUNTERS: ReadonlyArray<[key: keyof CardPost, singular: string, plural: string]> = [
  ['replyCount', 'reply', 'replies'],
  ['retweetCount', 'repost', 'reposts'],
  ['likeCount', 'like', 'likes'],
  ['quoteCount', 'quote', 'quotes'],
  ['bookmarkCount', 'bookmark', 'bookmarks'],
  ['viewCount', 'view', 'views'],
];

/** The post's counters; a counter the API did not give reads "unknown", never 0. */
export function Counters({ post }: { post: CardPost }) {
  return (
    <ul className="counters" aria-label="Counters">
      {COUNTERS.map(([key, one, many]) => {
        const n = readCount(post[key]);
        return (
          <li
            key={key}
            className={n === null ? 'counters__unknown' : undefined}
            title={`${fullCount(n)} ${n === 1 ? one : many}`}
          >
            <span className="counters__n">{compactCount(n)}</span> {n === 1 ? one : many}
          </li>
        );
      })}
    </ul>
  );
}
