/**
 * The archive bench's producer, a child process: it makes the answers (pages of 20 spec-shaped
 * posts as text) and sends them to the bench as the network would, so making them costs the
 * measured process (main and the archive's worker) neither CPU nor memory. Asked for `count` posts
 * from `first`, it sends one message per page, then `{ done, bytes }` (the JSON's size). Every
 * 10,000 posts are one query's pages, chained by cursor, as a fetch-everything run records them.
 */
import { repliesPage } from '../../src/core/archive/testing/answers';

const RUN = 10_000;
const send = process.send?.bind(process);
if (!send) throw new Error('archive-producer.ts runs as a child process with an IPC channel');
process.on('message', (m: { first: number; count: number; page: number }) => {
  let bytes = 0;
  for (let first = m.first; first < m.first + m.count; first += m.page) {
    // one fetch-everything run per 10,000 posts: the same query paged on, each page asked with the
    // cursor the one before it gave (so the archive numbers the pages)
    const run = first - (first % RUN);
    const page = repliesPage(first, m.page, Date.now(), first === run ? null : `c${first}`);
    const record = { ...page, params: `{"tweetId":"${run}"}` };
    bytes += Buffer.byteLength(record.text);
    send({ record });
  }
  send({ done: m.first + m.count, bytes });
});
