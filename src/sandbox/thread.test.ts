import { afterEach, describe, expect, it } from 'vitest';
import { startSandboxInWorker, type SandboxThread } from './thread';

const entry = new URL('./worker.ts', import.meta.url);
const execArgv = ['--import', 'tsx'];
const running: SandboxThread[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.close();
});

describe('the demo sandbox in a worker thread', () => {
  it('answers over loopback like the in-process one, and closes', async () => {
    const sandbox = await startSandboxInWorker({ port: 0, size: 'small' }, { entry, execArgv });
    expect(sandbox.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.examples.bigThreadPostId).toMatch(/^\d+$/);
    const res = await fetch(`${sandbox.baseUrl}/social/trends?woeid=1&count=5`);
    expect(res.status).toBe(200);
    await sandbox.close();
    await expect(fetch(`${sandbox.baseUrl}/__sandbox/usage`)).rejects.toThrow();
  });

  it('builds its world without blocking this thread', async () => {
    // the most CPU this thread spends between two ticks of a 1 ms timer (its longest block of own work;
    // wall-clock gaps would also count the time a loaded machine gives to other processes)
    const cpuMs = () => {
      const { user, system } = process.threadCpuUsage();
      return (user + system) / 1000;
    };
    let last = cpuMs();
    let block = 0;
    const timer = setInterval(() => {
      const now = cpuMs();
      block = Math.max(block, now - last);
      last = now;
    }, 1);
    try {
      running.push(await startSandboxInWorker({ port: 0 }, { entry, execArgv }));
    } finally {
      clearInterval(timer);
    }
    // the default world takes 40–300 ms of CPU to build in one stretch: on this thread that is one block
    expect(block).toBeLessThan(25);
  });

  it('reports a sandbox that cannot start instead of hanging', async () => {
    const first = await startSandboxInWorker({ port: 0, size: 'small' }, { entry, execArgv });
    running.push(first);
    await expect(startSandboxInWorker({ port: first.port, size: 'small' }, { entry, execArgv })).rejects.toThrow(
      /EADDRINUSE|address/i,
    );
  });
});
