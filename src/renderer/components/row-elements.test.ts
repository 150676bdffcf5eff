import { createElement, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { RowElements, sameNode } from './row-elements';

function Card(props: { post: { id: string }; depth?: number; onOpen?: () => void }) {
  return createElement('article', null, props.post.id);
}
const wrap = (content: ReactNode) => createElement('div', { className: 'row' }, content);

describe('RowElements', () => {
  const post = { id: '1' };

  it('hands back the element built last time when the row renders the same', () => {
    const rows = new RowElements();
    const first = rows.get('1', 0, createElement(Card, { post, depth: 2 }), wrap);
    const again = rows.get('1', 0, createElement(Card, { post, depth: 2 }), wrap);
    expect(again).toBe(first);
  });

  it('builds a new element when what the row renders changes, or where', () => {
    const rows = new RowElements();
    const first = rows.get('1', 0, createElement(Card, { post }), wrap);
    // the same post arriving as a new object (a page asked again) is a new rendering
    const newPost = rows.get('1', 0, createElement(Card, { post: { id: '1' } }), wrap);
    expect(newPost).not.toBe(first);
    const moved = rows.get('1', 1, createElement(Card, { post: { id: '1' } }), wrap);
    expect(moved).not.toBe(newPost);
    const withProp = rows.get('1', 1, createElement(Card, { post: { id: '1' }, depth: 1 }), wrap);
    expect(withProp).not.toBe(moved);
    // a placeholder replaced by its post
    const pending = rows.get('2', 2, createElement('div', { 'aria-busy': true }), wrap);
    expect(rows.get('2', 2, createElement(Card, { post: { id: '2' } }), wrap)).not.toBe(pending);
  });

  it('keeps a bounded number of rows, and the rows still being rendered', () => {
    const rows = new RowElements(10);
    const shown = rows.get('shown', 0, createElement(Card, { post }), wrap);
    for (let i = 1; i <= 100; i++) {
      rows.get(`r${i}`, i, createElement(Card, { post: { id: String(i) } }), wrap);
      // the mounted row is rendered with every pass of the list
      if (i % 5 === 0) expect(rows.get('shown', 0, createElement(Card, { post }), wrap)).toBe(shown);
    }
    expect(rows.size).toBeLessThanOrEqual(20);
  });
});

describe('sameNode', () => {
  it('compares elements by type, key and shallow props', () => {
    const post = { id: '1' };
    const onOpen = () => {};
    expect(sameNode(createElement(Card, { post, onOpen }), createElement(Card, { post, onOpen }))).toBe(true);
    expect(sameNode(createElement(Card, { post, onOpen }), createElement(Card, { post, onOpen: () => {} }))).toBe(
      false,
    );
    expect(sameNode(createElement(Card, { post, key: 'a' }), createElement(Card, { post, key: 'b' }))).toBe(false);
    expect(sameNode(createElement(Card, { post }), createElement(Card, { post, depth: 0 }))).toBe(false);
    expect(sameNode(createElement(Card, { post }), createElement('article', { post } as never))).toBe(false);
    expect(sameNode('text', 'text')).toBe(true);
    expect(sameNode(null, null)).toBe(true);
    expect(sameNode('text', createElement(Card, { post }))).toBe(false);
  });
});
