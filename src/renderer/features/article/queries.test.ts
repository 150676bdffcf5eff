import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { SkeinError } from '../../../shared/errors';
import { alreadyAsked, articleKeys, articleQuery } from './queries';

describe('alreadyAsked', () => {
  it('is false for an article query that only exists because a closed button mounted it', () => {
    const client = new QueryClient();
    const observer = new QueryObserver(client, articleQuery('1', false));
    const off = observer.subscribe(() => {});
    expect(client.getQueryState(articleKeys.ofPost('1'))).toBeDefined();
    expect(alreadyAsked(client.getQueryState(articleKeys.ofPost('1')))).toBe(false);
    off();
  });

  it('is true once the article was answered, even with a 501', async () => {
    const client = new QueryClient();
    const opts = {
      ...articleQuery('2', true),
      queryFn: async () => Promise.reject(new SkeinError('not-available', 'no', { httpStatus: 501 })),
    };
    await client.prefetchQuery(opts);
    expect(client.getQueryState(articleKeys.ofPost('2'))?.status).toBe('error');
    expect(alreadyAsked(client.getQueryState(articleKeys.ofPost('2')))).toBe(true);
    expect(alreadyAsked(undefined)).toBe(false);
  });
});
