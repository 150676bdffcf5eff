/** The post card over the second round of recorded live shapes, as main sends them (cardPost). */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { normalizePage } from '../../../shared/api/normalize/page';
import {
  recordedAutomatedPost,
  recordedBroadcastPost,
  recordedEmptyNones,
  recordedLinkPost,
  recordedMentionNotReply,
  recordedPoll4Post,
  recordedPollPost,
  recordedQuoteOfDeleted,
  recordedQuoteOfQuoteOfDeleted,
} from '../../../shared/api/fixtures/recorded-round2';
import { cardPost, type Post } from '../../../shared/api/schemas';
import { pollShares, pollStatus } from './CardAttachment';
import { PostCard } from './PostCard';

/** a raw live post as the card gets it: read by the client's reader, cut for the bridge */
function card(raw: unknown) {
  const page = normalizePage('postQuotes', { status: 'success', msg: 'success', tweets: [raw] });
  expect(page.dropped).toEqual([]);
  return cardPost(page.items[0] as Post);
}
const html = (raw: unknown) => renderToStaticMarkup(<PostCard post={card(raw)} />);

describe('PostCard, round 2', () => {
  it('a post quoting a post that quotes a deleted one: both real posts shown, the deleted one unavailable', () => {
    const out = html(recordedQuoteOfQuoteOfDeleted);
    expect(out).toContain('Context for the thread below');
    expect(out).toContain('before it went away');
    expect(out).toContain('Quoting a post that is unavailable');
    // one level down a deleted quote is a box of its own, with no link (there is no id to open)
    const direct = html(recordedQuoteOfDeleted);
    expect(direct).toContain('aria-label="Unavailable post"');
    expect(direct).toContain('This post is unavailable.');
    expect(direct).not.toContain('href="#/post/"');
    // the live service keeps a deleted post's id: shown as text, never a link that would spend a call
    expect(direct).toContain('Its id: <span class="post__unavailable-id">1933990000000000077</span>');
    expect(direct).not.toContain('href="#/post/1933990000000000077"');
    expect(direct).not.toContain('1 January 1970');
  });

  it('a poll: choices, votes and shares, the end, that the results are final', () => {
    const out = html(recordedPollPost);
    expect(out).toContain('aria-label="Poll"');
    expect(out).toContain('aria-label="Open data by default: 5,678 votes, 82 %"');
    expect(out).toContain('aria-label="Only on request: 1,234 votes, 18 %"');
    expect(out).toContain('6,912 votes');
    expect(out).toMatch(/Ended [^<]+</);
    expect(out).toContain('· final');
    expect(html(recordedPoll4Post)).toContain('Evening: 31 votes, 65 %');
  });

  it('poll shares and status: unknown counts give no shares; a running poll ends, a closed one ended', () => {
    expect(
      pollShares({
        choices: [
          { label: 'a', count: 1 },
          { label: 'b', count: null },
        ],
      }),
    ).toEqual([null, null]);
    expect(
      pollShares({
        choices: [
          { label: 'a', count: 0 },
          { label: 'b', count: 0 },
        ],
      }),
    ).toEqual([0, 0]);
    expect(pollStatus({ endsAt: 2_000, final: false }, 1_000)).toMatch(/^Ends /);
    expect(pollStatus({ endsAt: 1_000, final: false }, 2_000)).toMatch(/^Ended .* \(counts may still change\)$/);
    expect(pollStatus({ endsAt: null, final: true }, 0)).toBe('Final results');
  });

  it('a link preview: one link to the expanded URL, with its image, domain and title', () => {
    const out = html(recordedLinkPost);
    expect(out).toContain('aria-label="Link preview: Harbour data released in full (www.example.org)"');
    expect(out).toContain('href="https://www.example.org/harbour-data"');
    expect(out).toContain('src="https://pbs.example/card_img/story_800.jpg"');
  });

  it('a live broadcast is a link', () => {
    const out = html(recordedBroadcastPost);
    expect(out).toContain('aria-label="Live broadcast"');
    expect(out).toContain('aria-label="Open the broadcast “Harbour live: the storm comes in”"');
    expect(out).toContain('href="https://x.com/i/broadcasts/1ZkJzjKabcdEF"');
  });

  it('an automated account: "Automated by @operator", linked to the operator', () => {
    const out = html(recordedAutomatedPost);
    expect(out).toContain('aria-label="Automated account, run by @harbourlab"');
    expect(out).toContain('href="#/user/%40harbourlab/posts"');
  });

  it('a post that starts with @mentions is not a reply: no "Replying to", its mentions shown in its text', () => {
    const out = html(recordedMentionNotReply);
    expect(out).not.toContain('Replying to');
    expect(out).toContain('>@harbourlab</a>');
  });

  it('"" for none: unknown time and name, never 1 January 1970, an empty name or a link to nothing', () => {
    const out = html(recordedEmptyNones);
    expect(out).toContain('unknown time');
    expect(out).toContain('(no name)');
    expect(out).not.toMatch(/1970/);
    expect(out).not.toContain('href=""');
    expect(out).not.toContain('parent post');
  });

  it('an author that cannot be read: "Unknown author", no profile link', () => {
    const out = html({ ...recordedMentionNotReply, author: {} });
    expect(out).toContain('Unknown author');
    expect(out).toContain('aria-label="Post by an unknown author"');
    expect(out).not.toMatch(/<a [^>]*class="post__(name|avatar)"/);
  });
});
