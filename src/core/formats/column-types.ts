/**
 * The type of each of Skein's own table columns (the CSV's and Parquet's): counts INT64, flags BOOLEAN, ISO
 * times TIMESTAMP, everything else (ids first of all) text. Parquet writes its columns with these types; the
 * loaders beside a CSV or Parquet export (loaders.ts) declare every text column as text, so no reader turns
 * an id (or a name like "007") into a number.
 */
export type ColumnType = 'STRING' | 'INT64' | 'BOOLEAN' | 'TIMESTAMP';

const INT64 = new Set([
  'author_followers',
  'author_following',
  'retweetCount',
  'replyCount',
  'likeCount',
  'quoteCount',
  'bookmarkCount',
  'viewCount',
  'depth',
  'followers',
  'following',
  'statusesCount',
  'position',
  'tweet_volume',
  'created_at_ms',
  'member_count',
  'moderator_count',
  'start_ms',
  'participants_total',
  'total_live_listeners',
  'total_participated',
  'total_replay_watched',
  'page',
  'poll_choice1_count',
  'poll_choice2_count',
  'poll_choice3_count',
  'poll_choice4_count',
  'poll_duration_minutes',
]);
const BOOLEAN = new Set([
  'author_isBlueVerified',
  'isReply',
  'isBlueVerified',
  'canDm',
  'is_pinned',
  'is_space_available_for_replay',
  'is_blue_verified',
  'is_muted_by_admin',
  'is_muted_by_guest',
  'is_automated',
  'author_is_automated',
  'poll_counts_are_final',
]);
const TIMESTAMP = new Set(['created_at', 'started_at', 'retrieved_at', 'first_retrieved_at', 'poll_ends_at']);
export function columnType(column: string): ColumnType {
  if (INT64.has(column)) return 'INT64';
  if (BOOLEAN.has(column)) return 'BOOLEAN';
  if (TIMESTAMP.has(column)) return 'TIMESTAMP';
  return 'STRING';
}
