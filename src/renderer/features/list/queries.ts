/** Server state of lists: posts (newest first) and followers, both cursor-paged. */
import { pagedApiQuery } from '../../lib/api-query';

const listKeys = {
  all: ['list'] as const,
  posts: (id: string) => ['list', 'posts', id] as const,
  followers: (id: string) => ['list', 'followers', id] as const,
};

export const listPostsQuery = (id: string) => pagedApiQuery(listKeys.posts(id), 'listTimeline', { listId: id });

export const listFollowersQuery = (id: string) =>
  pagedApiQuery(listKeys.followers(id), 'listFollowers', { list_id: id });
