import { describe, expect, it } from 'vitest';
import { goCandidates } from './go-target';
import { goLabel, goPostLabel, listPhrase, listTitle, postName, shortId } from './titles';

const ID = '1815586911448033248';

describe('names instead of ids', () => {
  it('shortens a long id to its ends, never a short one', () => {
    expect(shortId(ID)).toBe('1815…3248');
    expect(shortId('1234567890')).toBe('1234567890');
    expect(shortId('42')).toBe('42');
  });

  it('heads a list with the name the user saw, else "List" and a short id', () => {
    expect(listTitle('Rust voices', ID)).toBe('Rust voices');
    expect(listTitle(null, ID)).toBe('List 1815…3248');
    expect(listPhrase('Rust voices', ID)).toBe('list “Rust voices”');
    expect(listPhrase(null, ID)).toBe('list 1815…3248');
  });

  it('names a post by its author and first words in export titles, its short id only when unknown', () => {
    const post = { author: { userName: 'ann' }, text: 'Hello there, this is a long first post of the thread' };
    expect(`Replies to ${postName(post, '2004533571666101375')}`).toBe(
      'Replies to @ann: “Hello there, this is a long first post…”',
    );
    expect(`Replies to ${postName(null, '2004533571666101375')}`).toBe('Replies to post 2004…1375');
    // hostile text: a handle-less, link-only post still never shows as an empty title
    expect(postName({ author: null, text: 'https://t.co/x' }, '2004533571666101375')).toBe('post 2004…1375');
  });

  it('labels a Go box choice with the post once it is known', () => {
    expect(goPostLabel({ author: { userName: 'ann' }, text: 'short words' }, '2004533571666101375')).toBe(
      'Post by @ann: “short words”',
    );
    expect(goPostLabel(null, '2004533571666101375')).toBe('Post 2004533571666101375');
  });

  it('says in the Go box what a number opens when the app knows it, and the id otherwise', () => {
    const id = '2004533571666101375';
    const known = {
      post: (p: string) => (p === id ? { author: { userName: 'ann' }, text: 'a thread about rivers' } : null),
      userName: (u: string) => (u === id ? 'river_ann' : null),
      listName: (l: string) => (l === id ? 'River people' : null),
    };
    expect(goCandidates(id).map((c) => goLabel(c, known))).toEqual([
      'Post by @ann: “a thread about rivers”',
      'Profile @river_ann',
      `Community ${id}`,
      'List “River people”',
    ]);
    const nothing = { post: () => null, userName: () => null, listName: () => null };
    expect(goCandidates(id).map((c) => goLabel(c, nothing))).toEqual(goCandidates(id).map((c) => c.label));
  });
});
