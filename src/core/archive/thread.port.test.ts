/**
 * A re-export's worker reads the archive over a port of its own: the same answers as main's,
 * and a reader it leaves open when its port closes (a crashed or stopped worker) is closed by the archive.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ArchiveQuery } from '../../shared/ipc/archive';
import { repliesPage } from './testing/answers';
import { threadOverPort } from './over-port';
import { startArchiveThread } from './thread';

const dir = mkdtempSync(join(tmpdir(), 'skein-archive-port-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the archive over a port of its own', () => {
  it('answers the port and closes the readers a closed port left open', { timeout: 30_000 }, async () => {
    const thread = await startArchiveThread({
      entry: new URL('../compose/archive-worker.ts', import.meta.url),
      reexportEntry: new URL('../compose/reexport-worker.ts', import.meta.url),
      execArgv: ['--import', 'tsx'],
    });
    expect(thread.offMain).toBeDefined();
    await thread.call('open', 'current', { path: join(dir, 'p.skein'), name: 'P', kind: 'live' });
    // more rows (and requests) than the polls below could take one at a time: only a closed reader answers none
    for (let first = 0; first < 1_000; first++) thread.ingest('current', repliesPage(first, 1, Date.now()));
    await thread.call('flush');
    const port = thread.offMain!.port();
    const other = threadOverPort(port);
    const reader = await other.call('readOpen', 'current', ArchiveQuery.parse({}));
    expect(await other.call('readNext', reader, 10)).toHaveLength(10);
    const requests = await other.call('requestsOpen', 'current', ArchiveQuery.parse({}));
    expect(await other.call('requestsNext', requests, 10)).toHaveLength(10);
    await other.close();
    // the port's end in the archive's worker closed the readers: no more rows from either
    await expect.poll(() => thread.call('readNext', reader, 1), { timeout: 10_000 }).toEqual([]);
    await expect.poll(() => thread.call('requestsNext', requests, 1), { timeout: 10_000 }).toEqual([]);
    await thread.close();
  });
});
