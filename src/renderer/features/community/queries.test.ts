import { InfiniteQueryObserver, QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { SkeinError } from '../../../shared/errors';
import { communityMembersQuery } from './queries';

/** Mount an observer (as a component would), wait until it settles, unmount. */
async function mountOnce(client: QueryClient, options: ReturnType<typeof communityMembersQuery>): Promise<string> {
  const observer = new InfiniteQueryObserver(client, options);
  let unsubscribe = () => {};
  const status = await new Promise<string>((resolve) => {
    unsubscribe = observer.subscribe((r) => {
      if (r.status !== 'pending' && r.fetchStatus === 'idle') resolve(r.status);
    });
    const now = observer.getCurrentResult();
    if (now.status !== 'pending' && now.fetchStatus === 'idle') resolve(now.status);
  });
  unsubscribe();
  return status;
}

describe('community members / moderators', () => {
  it('asks the announced operation once per session: its 501 is kept, not retried, not refetched', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: 3 } } });
    let calls = 0;
    const options = {
      ...communityMembersQuery('15'),
      queryFn: async () => {
        calls += 1;
        throw new SkeinError('not-available', 'Community members is not available yet', { httpStatus: 501 });
      },
    } as unknown as ReturnType<typeof communityMembersQuery>;
    expect(await mountOnce(client, options)).toBe('error');
    expect(calls).toBe(1);
    expect(await mountOnce(client, options)).toBe('error');
    expect(calls).toBe(1);
  });
});
