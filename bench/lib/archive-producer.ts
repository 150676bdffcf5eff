/**
 * The archive bench's producer, a child process: it makes the answers (pages of 20 spec-shaped
 * posts as text) and sends them to the bench as the network would, so making them costs the
 * measured process (main and the archive's worker) neither CPU nor memory. Asked for `count` posts
 * from `first`, it sends one message per page, then `{ done, bytes }` (the JSON's size).
 */
import { repliesPage } from '../../src/main/services/archive/testing/answers';

const send = process.send?.bind(process);
if (!send) throw new Error('archive-producer.ts runs as a child process with an IPC channel');
process.on('message', (m: { first: number; count: number; page: number }) => {
  let bytes = 0;
  for (let first = m.first; first < m.first + m.count; first += m.page) {
    const record = repliesPage(first, m.page, Date.now());
    bytes += Buffer.byteLength(record.text);
    send({ record });
  }
  send({ done: m.first + m.count, bytes });
});
