import { isValidElement, type ReactElement, type ReactNode } from 'react';

/**
 * The row elements last handed to the virtualizer, by row key. virtua's item
 * is a memo component whose child is the element built for the row; a new
 * element each render (however equal) makes every mounted item render again,
 * and React compare the props of both wrapper boxes, whenever the list
 * renders: a page arriving below the reader, a scroll that moves the range.
 * Handing back the element built last time, when what the row renders is the
 * same (same type, key and props, shallowly, and the same index), lets React
 * skip the row altogether.
 *
 * Bounded without knowing which rows are mounted: two generations. A lookup
 * moves its entry to the current one; when the current one reaches `limit`
 * entries it becomes the previous one, and whatever was left in the previous
 * one is dropped. Rows still mounted are looked up on every render, so they
 * survive; rows scrolled away go after two turns. At most 2 × `limit` rows
 * are held (their posts with them).
 */
export class RowElements {
  private current = new Map<string, Entry>();
  private previous = new Map<string, Entry>();

  constructor(private readonly limit = 256) {}

  /**
   * The element for row `key` at `index`: `wrap(content)` when built anew,
   * the one built last time when `content` renders the same thing there.
   */
  get(key: string, index: number, content: ReactNode, wrap: (content: ReactNode) => ReactElement): ReactElement {
    const last = this.current.get(key) ?? this.previous.get(key);
    if (last && last.index === index && sameNode(last.content, content)) {
      this.keep(key, last);
      return last.element;
    }
    const entry: Entry = { index, content, element: wrap(content) };
    this.keep(key, entry);
    return entry.element;
  }

  /** rows held, both generations (for tests and the bound) */
  get size(): number {
    return this.current.size + this.previous.size;
  }

  private keep(key: string, entry: Entry): void {
    this.previous.delete(key);
    this.current.set(key, entry);
    if (this.current.size >= this.limit) {
      this.previous = this.current;
      this.current = new Map();
    }
  }
}

interface Entry {
  index: number;
  content: ReactNode;
  element: ReactElement;
}

/**
 * Whether two renderings are the same: equal primitives, or elements of one type and key with shallowly
 * equal props. A plain loop rather than zustand's `shallow`, which builds two Maps per call: this runs for
 * every mounted row on every render of a list, scrolling included.
 */
export function sameNode(a: ReactNode, b: ReactNode): boolean {
  if (Object.is(a, b)) return true;
  if (!isValidElement(a) || !isValidElement(b)) return false;
  if (a.type !== b.type || a.key !== b.key) return false;
  const pa = a.props as Record<string, unknown>;
  const pb = b.props as Record<string, unknown>;
  const keys = Object.keys(pa);
  if (keys.length !== Object.keys(pb).length) return false;
  for (const k of keys) {
    if (!Object.prototype.hasOwnProperty.call(pb, k) || !Object.is(pa[k], pb[k])) return false;
  }
  return true;
}
