import type { ReactNode } from 'react';
import type { QueryType } from '../../../../shared/api/catalog';
import type { CardPost } from '../../../../shared/api/schemas';
import { postName } from '../../../lib/titles';
import { ExportButton, exportView } from '../../export';
import { ReplyControls } from './ReplyControls';

export const REPLY_NOUN = { one: 'reply', many: 'replies' };

/** The order and layout controls, what else the layout offers (`children`), and the export of the thread. */
export function RepliesToolbar(props: {
  postId: string;
  order: QueryType;
  flat: boolean;
  /** the flat list is shown oldest first (it holds every reply) */
  oldest?: boolean;
  /** the flat list holds every reply: oldest first is offered */
  oldestAvailable?: boolean;
  focal: CardPost | null;
  /** the post as export titles name it (author and first words), known before any reply page */
  label?: string;
  /** what the view holds; null before the first page */
  loaded: { pages: number; items: number; reachedEnd: boolean } | null;
  children?: ReactNode;
}) {
  const { postId, order, focal } = props;
  return (
    <div className="toolbar" role="group" aria-label="Reply options">
      <ReplyControls
        postId={postId}
        order={order}
        flat={props.flat}
        oldest={props.oldest ?? false}
        oldestAvailable={props.oldestAvailable ?? false}
      />
      {props.children}
      <ExportButton
        view={
          props.loaded
            ? exportView('thread', { tweetId: postId, queryType: order }, props.loaded, {
                title: `Replies to ${props.label ?? postName(focal, postId)}`,
                expectedItems: focal?.replyCount,
              })
            : null
        }
      />
    </div>
  );
}
