import { describe, expect, it } from 'vitest';
import { SkeinError } from '../../shared/errors';
import { checkedBaseUrl } from './request';

describe('checkedBaseUrl', () => {
  it('normalizes a base URL', () => {
    expect(checkedBaseUrl('http://127.0.0.1:4000/')).toBe('http://127.0.0.1:4000');
    expect(checkedBaseUrl('https://api.example/v1//')).toBe('https://api.example/v1');
  });

  it('still refuses a bad base URL after a good one was checked (a refusal is never remembered as good)', () => {
    expect(checkedBaseUrl('https://api.example')).toBe('https://api.example');
    for (const bad of ['not a url', 'ftp://api.example', 'https://user:pw@api.example', 'https://api.example/?q=1']) {
      expect(() => checkedBaseUrl(bad)).toThrow(SkeinError);
      expect(() => checkedBaseUrl(bad)).toThrow(SkeinError);
    }
    expect(checkedBaseUrl('https://api.example')).toBe('https://api.example');
  });

  it('an empty base URL says what to set, and that nothing was sent', () => {
    for (const empty of ['', '   ']) {
      try {
        checkedBaseUrl(empty);
        expect.unreachable();
      } catch (e) {
        expect((e as SkeinError).message).toBe('No API base URL is set for live mode, so nothing was sent.');
        expect((e as SkeinError).details?.fields?.[0]?.field).toBe('baseUrl');
        expect((e as SkeinError).details?.action).toMatch(/Settings/);
      }
    }
  });
});
