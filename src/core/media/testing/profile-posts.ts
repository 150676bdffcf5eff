/**
 * The demo profile's posts, read page by page from a sandbox as a timeline read gives them: the posts with
 * photos, videos and GIFs the media tests keep.
 */
import type { Sandbox } from '../../../sandbox';

export async function profilePosts(sandbox: Sandbox, pages = 6): Promise<Array<{ id: string }>> {
  const posts: Array<{ id: string }> = [];
  let cursor = '';
  for (let page = 0; page < pages; page++) {
    const res = await fetch(
      `${sandbox.baseUrl}/social/user/tweet_timeline?userId=${sandbox.examples.profile.id}${cursor ? `&cursor=${cursor}` : ''}`,
    );
    const body = (await res.json()) as { tweets?: Array<{ id: string }>; next_cursor?: string };
    posts.push(...(body.tweets ?? []));
    if (!body.next_cursor) break;
    cursor = encodeURIComponent(body.next_cursor);
  }
  return posts;
}
