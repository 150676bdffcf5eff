import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { billionLaughs } from '../testing/hostile-files';
import { readInWorker } from './reader';

const entry = new URL('../../compose/files-worker.ts', import.meta.url);
const execArgv = ['--import', 'tsx'];

/** a project Skein would read: one codebook, `n` sources with one selection each */
function project(n: number): Uint8Array {
  const sources = Array.from(
    { length: n },
    (_, i) =>
      `<TextSource guid="00000000-0000-4000-8000-${String(i).padStart(12, '0')}" name="post ${i}"><Description>[skein kind=post id=${1_800_000_000_000_000_000n + BigInt(i)}] ${'words '.repeat(20)}</Description></TextSource>`,
  );
  const xml = `<?xml version="1.0" encoding="utf-8"?><Project name="Big" xmlns="urn:QDA-XML:project:1.0"><CodeBook><Codes><Code guid="5f0c2a7e-0000-4000-8000-000000000001" name="Stance" isCodable="true"/></Codes></CodeBook><Sources>${sources.join('')}</Sources></Project>`;
  return zipSync({ 'project.qde': strToU8(xml) }, { level: 1 });
}

describe('reading a file in a worker of its own', () => {
  it('reads a project as this thread would', { timeout: 60_000 }, async () => {
    const read = await readInWorker(entry, execArgv).qdpx(project(3), 0);
    expect(read.name).toBe('Big');
    expect(read.definition.fields[0]?.label).toBe('Stance');
  });

  it(
    'a file that needs more memory than the worker has ends the worker, said plainly; this thread goes on',
    {
      timeout: 60_000,
    },
    async () => {
      const tight = readInWorker(entry, execArgv, { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 4 });
      // the same limit reads a small file: it is the file that outgrows it
      expect((await tight.qdpx(project(2), 0)).name).toBe('Big');
      await expect(tight.qdpx(project(200_000), 0)).rejects.toThrow(
        'reading it took more memory than Skein gives one file',
      );
      // and the next file is read by a fresh worker
      expect((await readInWorker(entry, execArgv).qdpx(project(2), 0)).name).toBe('Big');
    },
  );

  it('entities are refused in the worker too, with the reason', { timeout: 60_000 }, async () => {
    await expect(readInWorker(entry, execArgv).qdc(billionLaughs('<CodeBook/>'))).rejects.toThrow(
      /declares a document type or entities/,
    );
  });
});
