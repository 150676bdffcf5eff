/** Answers as the service sends them, for the archive's tests and bench. */
import { postFixture } from '../../../shared/api/fixtures';
import type { IngestRecord } from '../answer';

const WORDS = ['heron', 'river', 'archive', 'signal', 'market', 'vote', 'storm', 'garden', 'engine', 'pixel'];

/** A post whose text and time vary with its number. */
function numberedPost(n: number): Record<string, unknown> {
  const created = new Date(Date.UTC(2026, 0, 1) + (n % 8760) * 3_600_000);
  const day = created.toUTCString().slice(0, 3);
  const [, dd, mon, yyyy, hms] = created.toUTCString().split(' ');
  return {
    ...postFixture,
    id: String(1_000_000_000 + n),
    text: `post ${n} about the ${WORDS[n % WORDS.length]} and the ${WORDS[(n * 7) % WORDS.length]} w${n % 1000}`,
    likeCount: n % 97,
    createdAt: `${day} ${mon} ${dd} ${hms} +0000 ${yyyy}`,
    quoted_tweet: null,
  };
}

/** One page of `size` posts from number `first`, as a replies answer. */
export function repliesPage(first: number, size: number, at: number, cursor: string | null = null): IngestRecord {
  const posts = Array.from({ length: size }, (_, i) => numberedPost(first + i));
  return {
    operation: 'postReplies',
    params: `{"tweetId":"${first}"}`,
    cursor,
    at,
    baseUrl: 'https://api.example',
    httpStatus: 200,
    text: JSON.stringify({
      replies: posts,
      has_next_page: true,
      next_cursor: `c${first + size}`,
      status: 'success',
      message: '',
    }),
  };
}

/** A post with this id and text (no quoted post), for a test's answer. */
export function post(id: string, text: string, extra: object = {}) {
  return { ...postFixture, id, text, quoted_tweet: null, ...extra };
}

/** A replies answer holding these posts; `next`: the next page's cursor ('' for the last page). */
export function repliesAnswer(posts: unknown[], next = ''): string {
  return JSON.stringify({
    replies: posts,
    has_next_page: next !== '',
    next_cursor: next,
    status: 'success',
    message: '',
  });
}

/** The record of an answer as the client hands it to the archive: a first page of post 1's replies unless told. */
export function rec(text: string, over: Partial<IngestRecord> = {}): IngestRecord {
  return {
    operation: 'postReplies',
    params: '{"tweetId":"1"}',
    cursor: null,
    at: 1000,
    baseUrl: 'https://api.example',
    httpStatus: 200,
    text,
    ...over,
  };
}
