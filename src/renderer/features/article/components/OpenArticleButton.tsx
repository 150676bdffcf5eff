/**
 * "Open article" for a post: asks the article operation once (announced by
 * the API, not available yet: HTTP 501, never charged) and says so; should
 * it ever answer, shows the title, text and cover, and the other fields.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { isSkeinError } from '../../../../shared/errors';
import { useDismissable } from '../../../lib/layers';
import { ErrorState } from '../../../components/ErrorState';
import { SkeletonList } from '../../../components/states';
import { NotAvailableNotice } from '../../../components/NotAvailableNotice';
import { EntryRowView } from '../../../components/entry/EntryRowView';
import { readArticle } from '../article-shape';
import { alreadyAsked, articleKeys, articleQuery } from '../queries';
import './article.css';

export function OpenArticleButton({ postId }: { postId: string }) {
  const [open, setOpen] = useState(false);
  // once asked, stay enabled: toggling `enabled` back on would ask again (an error has no data, so it counts as stale)
  const client = useQueryClient();
  const [asked, setAsked] = useState(() => alreadyAsked(client.getQueryState(articleKeys.ofPost(postId))));
  const q = useQuery(articleQuery(postId, asked));
  const panelId = useId();
  // the open panel is in front: Esc hides it before Esc means Back
  useDismissable(open, () => setOpen(false));
  return (
    <div className="article">
      <button
        type="button"
        className="btn btn--small"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => {
          setAsked(true);
          setOpen((o) => !o);
        }}
      >
        {open ? 'Hide article' : 'Open article'}
      </button>
      {open ? (
        <div id={panelId} className="article__panel" role="region" aria-label="Article">
          {q.status === 'pending' ? (
            <SkeletonList count={1} label="Asking for the article…" />
          ) : q.status === 'error' ? (
            isSkeinError(q.error) && q.error.code === 'not-available' ? (
              <NotAvailableNotice operation="article" what="Long-form articles" />
            ) : (
              <ErrorState compact error={q.error} what="the article" />
            )
          ) : (
            <ArticleBody data={q.data.data} />
          )}
        </div>
      ) : null}
    </div>
  );
}

function ArticleBody({ data }: { data: unknown }) {
  const a = readArticle(data);
  return (
    <article className="article__body">
      {a.coverUrl ? <img className="article__cover" src={a.coverUrl} alt="" referrerPolicy="no-referrer" /> : null}
      <h2 className="article__title" dir="auto">
        {a.title ?? 'Untitled article'}
      </h2>
      {a.text ? (
        <p className="article__text" dir="auto">
          {a.text}
        </p>
      ) : null}
      <details>
        <summary>Everything the API sent</summary>
        <EntryRowView view={{ kind: 'fields', rows: a.fields }} />
      </details>
    </article>
  );
}
