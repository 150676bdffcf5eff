/**
 * Pseudonyms and the items they read, with hostile bodies: markup and regex characters in names, empty and
 * missing authors, placeholder mention ids, numbers for ids, deep nesting; mentions of opted-out accounts,
 * public figures kept, ids inside links, the same key giving the same pseudonyms and another key others.
 */
import { describe, expect, it } from 'vitest';
import { readAccount, readPost } from './items';
import { createPseudonymiser } from './pseudonym';
import { optedOutOf } from './share';

const none = { handles: new Set<string>(), ids: new Set<string>() };

const hostile = {
  id: '1850000000000000001',
  text: '@Ada_L <img src=x onerror=alert(1)> thinks A.*B (the "lab") is right, see https://x.com/ada_l/status/1850000000000000002 cc @Bob_99 and @Ghost',
  createdAt: 'Sun Nov 22 02:13:21 +0000 2026',
  author: { id: 42, userName: 'Ada_L', name: 'A.*B (the "lab")', followers: 10 },
  entities: { user_mentions: [{ id_str: '0', screen_name: 'Bob_99', name: '' }, { screen_name: 'Ghost' }, null, 'x'] },
  quoted_tweet: { author: {}, text: '', entities: {} },
  retweeted_tweet: null,
  inReplyToUsername: '',
  inReplyToUserId: null,
  extra: { deep: { deeper: { deepest: [[[['Ada_L']]]] } } },
};

describe('reading items', () => {
  it('reads a hostile post: numeric ids, empty authors, placeholder mention ids, junk entries', () => {
    const p = readPost(hostile);
    expect(p.author).toMatchObject({ id: '42', handle: 'Ada_L', name: 'A.*B (the "lab")', followers: 10 });
    expect(p.quotedAuthor).toMatchObject({ id: null, handle: null, name: null });
    expect(p.accounts.map((a) => a.handle)).toEqual(['Ada_L', null, 'Bob_99', 'Ghost', null, null]);
    // a placeholder id ("0") names nobody
    expect(p.accounts.find((a) => a.handle === 'Bob_99')?.id).toBeNull();
  });

  it('reads anything: null, arrays, strings, a repost’s original text whole', () => {
    for (const raw of [null, [], 'x', 7, {}, { author: [] }]) expect(() => readPost(raw)).not.toThrow();
    expect(
      readPost({ text: 'RT @a: cut…', retweeted_tweet: { text: 'the whole text', author: { id: '9' } } }).text,
    ).toBe('the whole text');
    expect(readAccount({ rest_id: '5', screen_name: 's', profile_bio: { description: 'bio' } })).toMatchObject({
      id: '5',
      handle: 's',
      bio: 'bio',
    });
  });
});

describe('pseudonyms', () => {
  const accounts = readPost(hostile).accounts;

  it('replace ids, handles, names and mentions inside texts, markup and regex characters included', () => {
    const p = createPseudonymiser('key-one-xxxxxxxxxxxxxxxx', accounts, { optedOut: none });
    const out = p.text(hostile.text);
    for (const original of ['Ada_L', 'ada_l', 'Bob_99', 'Ghost', 'A.*B (the "lab")', '1850000000000000002'])
      expect(out).not.toContain(original);
    expect(out).toContain('<img src=x onerror=alert(1)>');
    expect(out).toContain(`@${p.handle('Ada_L')}`);
    expect(p.handle('ADA_L')).toBe(p.handle('ada_l'));
    expect(p.userId('42')).toMatch(/^u_[0-9a-f]{16}$/);
    expect(p.postId('1')).toMatch(/^p_[0-9a-f]{16}$/);
    expect(p.name('A.*B (the "lab")')).toMatch(/^Person [0-9A-F]{8}$/);
  });

  it('the same key, the same pseudonyms; another key, others', () => {
    const a = createPseudonymiser('key-one-xxxxxxxxxxxxxxxx', accounts, { optedOut: none });
    const b = createPseudonymiser('key-one-xxxxxxxxxxxxxxxx', accounts, { optedOut: none });
    const c = createPseudonymiser('key-two-xxxxxxxxxxxxxxxx', accounts, { optedOut: none });
    expect(b.text(hostile.text)).toBe(a.text(hostile.text));
    expect(b.fingerprint).toBe(a.fingerprint);
    expect(c.text(hostile.text)).not.toBe(a.text(hostile.text));
    expect(c.userId('42')).not.toBe(a.userId('42'));
    expect(c.fingerprint).not.toBe(a.fingerprint);
  });

  it('public figures keep their own; opted-out accounts’ mentions are removed', () => {
    const p = createPseudonymiser(
      'k-xxxxxxxxxxxxxxxxxxxx',
      [...accounts, { id: '7', handle: 'Famous', name: 'Famous Person', followers: 2_000_000 }],
      {
        publicFigureFollowers: 1_000_000,
        optedOut: { handles: new Set(['ghost']), ids: new Set() },
      },
    );
    const out = p.text('@Famous said it, Famous Person agrees; @Ghost did not');
    expect(out).toBe('@Famous said it, Famous Person agrees; @[removed] did not');
    expect(p.userId('7')).toBe('7');
    expect(p.exempt({ handle: 'famous' })).toBe(true);
    expect(p.exempt({ id: '42' })).toBe(false);
  });
});

describe('opted-out accounts', () => {
  const ada = [{ userId: '42', handle: 'ada_l', addedAt: 0, note: '' }];
  it('a post by them, a repost or quote of theirs, their account; not a mere reply or mention', () => {
    expect(optedOutOf('post', hostile, ada)).toBe(true);
    expect(optedOutOf('post', { author: { id: '1' }, retweeted_tweet: { author: { userName: 'Ada_L' } } }, ada)).toBe(
      true,
    );
    expect(optedOutOf('post', { author: { id: '1' }, quoted_tweet: { author: { id: 42 } } }, ada)).toBe(true);
    expect(optedOutOf('user', { id: '42' }, ada)).toBe(true);
    expect(optedOutOf('post', { author: { id: '1' }, text: '@Ada_L hi', inReplyToUserId: '42' }, ada)).toBe(false);
    expect(optedOutOf('post', null, ada)).toBe(false);
    expect(optedOutOf('post', hostile, [])).toBe(false);
  });
});
