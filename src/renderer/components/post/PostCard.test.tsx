import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Post, User } from '../../../shared/api/schemas';
import { PostCard } from './PostCard';

const author: User = {
  type: 'user',
  userName: 'ada',
  url: 'https://social.example/ada',
  id: '7',
  name: 'Ada <script>',
  isBlueVerified: true,
  description: '',
  location: null,
  followers: 1,
  following: 2,
  statusesCount: null,
  createdAt: 'Mon Jan 05 10:00:00 +0000 2026',
  profilePicture: 'https://img.example/a.jpg',
  coverPicture: null,
  canDm: false,
  pinnedTweetIds: [],
  profile_bio: null,
};

function post(over: Partial<Post> = {}): Post {
  return {
    type: 'tweet',
    id: '100',
    url: 'https://social.example/ada/status/100',
    text: 'hello',
    retweetCount: 1,
    replyCount: 0,
    likeCount: 3,
    quoteCount: 0,
    bookmarkCount: 0,
    viewCount: null,
    createdAt: 'Mon Jan 05 10:00:00 +0000 2026',
    lang: 'en',
    isReply: false,
    inReplyToId: null,
    conversationId: '100',
    displayTextRange: null,
    entities: null,
    author,
    quoted_tweet: null,
    ...over,
  };
}

describe('PostCard', () => {
  it('renders untrusted text as text, never markup', () => {
    const html = renderToStaticMarkup(
      <PostCard post={post({ text: '<img src=x onerror=alert(1)> &amp; <b>bold</b>' })} />,
    );
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &lt;b&gt;bold&lt;/b&gt;');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('Ada &lt;script&gt;');
  });
  it('shows unknown counters as unknown and zero as 0', () => {
    const html = renderToStaticMarkup(<PostCard post={post()} />);
    expect(html).toMatch(/counters__unknown[^>]*><span class="counters__n">unknown<\/span> views/);
    expect(html).toMatch(/<span class="counters__n">0<\/span> replies/);
    expect(html).toContain('aria-label="Verified"');
  });
  it('nests a quoted post once and turns a quote of a quote into a link', () => {
    const inner = post({ id: '300', author: { ...author, userName: 'grace' } });
    const middle = post({ id: '200', quoted_tweet: inner });
    const html = renderToStaticMarkup(<PostCard post={post({ quoted_tweet: middle })} />);
    expect(html).toContain('data-post-id="200"');
    expect(html).not.toContain('data-post-id="300"');
    expect(html).toContain('href="#/post/300/replies">Quoted post by <bdi dir="ltr">@grace</bdi></a>');
  });
  it('says whom a reply answers, from the mention it hides', () => {
    const html = renderToStaticMarkup(
      <PostCard
        post={post({
          isReply: true,
          inReplyToId: '99',
          text: '@bob yes',
          displayTextRange: [5, 8],
          entities: { user_mentions: [{ id_str: '8', indices: [0, 4], name: 'Bob', screen_name: 'bob' }] },
        })}
      />,
    );
    expect(html).toContain('Replying to <span><a href="#/user/8/posts"><bdi dir="ltr">@bob</bdi></a></span>');
    expect(html).toContain('href="#/post/99/replies">parent post</a>');
    expect(html).toMatch(/post__text"[^>]*>yes<\/p>/);
  });

  it('isolates names and handles, and shows a spoofed handle’s hidden characters as codes with a flag (attack: RTL override, zero width)', () => {
    const html = renderToStaticMarkup(
      <PostCard post={post({ author: { ...author, userName: 'ada\u202Egnp.exe', name: 'Ada\u202E moc.evil' } })} />,
    );
    expect(html).toContain('<bdi>Ada\u202E moc.evil</bdi>');
    expect(html).toContain('@ada⟨U+202E⟩gnp⟨U+002E⟩exe');
    expect(html).toContain('aria-label="Unusual handle"');
    expect(html).not.toContain('@ada\u202E');
    const plain = renderToStaticMarkup(<PostCard post={post({ author: { ...author, userName: 'a\u200Bda' } })} />);
    expect(plain).toContain('@a⟨U+200B⟩da');
  });
});
