/** A retweet shows its original (api-field-notes.md, recorded bodies): author, full text, media, counters, under "Reposted by". */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { postFixture, userFixture } from '../../../shared/api/fixtures';
import { cardPost, type Post } from '../../../shared/api/schemas';
import { PostCard } from './PostCard';

const original: Post = {
  ...postFixture,
  id: '900',
  text: `${'The whole original text. '.repeat(40)}END-OF-ORIGINAL`,
  displayTextRange: [0, 280],
  entities: { media: postFixture.entities.media },
  likeCount: 4321,
  viewCount: '98765',
  author: { ...userFixture, id: '11', userName: 'orig', name: 'Orig Example' },
};
const wrapper: Post = {
  ...postFixture,
  id: '901',
  text: 'RT @orig: The whole original text. The whole…',
  likeCount: 0,
  viewCount: '0',
  entities: null,
  author: { ...userFixture, id: '22', userName: 'booster', name: 'Booster' },
  isRetweet: false,
  retweeted_tweet: original,
};

describe('PostCard of a retweet', () => {
  const html = renderToStaticMarkup(<PostCard post={cardPost(wrapper)} />);

  it('shows the original post: its author, its whole text, its media and its counters', () => {
    expect(html).toContain('Orig Example');
    expect(html).toContain('@orig');
    expect(html).toContain('END-OF-ORIGINAL');
    expect(html).not.toContain('RT @orig:');
    expect(html).toContain('https://img.example/loom.png');
    expect(html).toContain('4.3K');
    expect(html).toContain('aria-label="Post by Orig Example @orig, reposted by @booster"');
  });

  it('says who reposted it, linking their profile and the repost', () => {
    expect(html).toMatch(
      /<p class="post__reposted">Reposted by <a href="#\/user\/22\/posts"[^>]*>@booster<\/a> · <a href="#\/post\/901\/replies">/,
    );
  });

  it('shows a post whose retweeted_tweet is null as itself', () => {
    const plain = renderToStaticMarkup(<PostCard post={cardPost({ ...wrapper, retweeted_tweet: null })} />);
    expect(plain).toContain('RT @orig:');
    expect(plain).not.toContain('Reposted by');
  });
});
