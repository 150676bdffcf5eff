/**
 * The archive bench's producer, a worker thread of its own: it makes the answers (pages of 20
 * spec-shaped posts as text) that the network hands main in the app, so making them costs main
 * nothing the bench measures. Asked for `count` posts from `first`, it posts one message per page,
 * then `{ done, cpuMs, bytes }`: the CPU it spent on them (the bench leaves it out of the ingest's)
 * and the JSON's size.
 */
import { parentPort } from 'node:worker_threads';
import { repliesPage } from '../../src/main/services/archive/testing/answers';

if (!parentPort) throw new Error('archive-producer.ts runs as a worker thread');
const port = parentPort;
port.on('message', (m: { first: number; count: number; page: number }) => {
  const cpu0 = process.threadCpuUsage();
  let bytes = 0;
  for (let first = m.first; first < m.first + m.count; first += m.page) {
    const record = repliesPage(first, m.page, Date.now());
    bytes += Buffer.byteLength(record.text);
    port.postMessage({ record });
  }
  const cpu = process.threadCpuUsage(cpu0);
  port.postMessage({ done: m.first + m.count, cpuMs: (cpu.user + cpu.system) / 1000, bytes });
});
