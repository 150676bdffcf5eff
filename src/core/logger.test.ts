import { describe, expect, it } from 'vitest';
import { createLogger, redactText } from './logger';

describe('redacting logger', () => {
  const setup = (secrets: string[], level?: 'debug' | 'info' | 'warn' | 'error') => {
    const lines: string[] = [];
    const log = createLogger({
      write: (l) => lines.push(l),
      secrets: () => secrets,
      now: () => 0,
      level,
    });
    return { lines, log };
  };

  it('cuts the key out of messages and details, in every spelling', () => {
    const key = 'CANARY-a1b2+c3/d4"e5';
    const { lines, log } = setup([key]);
    log.error(`failed with ${key}`, {
      url: `https://api.example/?k=${encodeURIComponent(key)}`,
      nested: [{ text: key }],
      err: new Error(`boom ${key}`),
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('CANARY-a1b2');
    expect(lines[0]).toContain('[redacted]');
  });

  it('masks values under secret-looking names whatever they hold', () => {
    const { lines, log } = setup([]);
    log.warn('headers', {
      'x-api-key': 'abc123',
      apiKey: 'def456',
      token: 'ghi789',
      Authorization: 'Bearer jkl012',
      headers: { cookie: 'session=mno345', 'Set-Cookie': 'id=pqr678' },
      other: 'kept',
    });
    expect(lines[0]).not.toMatch(/abc123|def456|ghi789|jkl012|mno345|pqr678/);
    expect(lines[0]).toContain('kept');
  });

  it('writes JSON lines at or above its level', () => {
    const { lines, log } = setup([], 'warn');
    log.info('quiet');
    log.warn('loud', { n: 1 });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toEqual({
      t: new Date(0).toISOString(),
      level: 'warn',
      msg: 'loud',
      detail: { n: 1 },
    });
  });

  it('redactText leaves short or absent secrets alone', () => {
    expect(redactText('abc', ['ab'])).toBe('abc');
    expect(redactText('key=SECRETKEY', ['SECRETKEY'])).toBe('key=[redacted]');
  });
});
