/**
 * Batch lookups of ids the world never generated (hydrating a shared id file names ids of anyone): with `anyIds`
 * on, any numeric id is answered deterministically — a stable share is "not found" (left out, as the live
 * service leaves out deleted, protected and suspended items), the rest get a post or user drawn for that id:
 * the world's post (user) at a position hashed from (seed, id), with the asked id (and, for a user, a handle
 * of its own). Nothing is kept per id: a million ids cost no memory beyond the world itself.
 */
import type { SpecPost, User } from '../../shared/api';

export interface AnyIdsOptions {
  /** the share of foreign ids answered as not found, in percent (default 10) */
  notFoundPercent?: number;
}

/** FNV-1a over the seed and the id: the same (seed, id) always gives the same number. */
function idHash(seed: number, salt: string, id: string): number {
  let h = 0x811c9dc5 ^ seed;
  const text = `${salt}:${id}`;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const ID = /^[1-9]\d{0,19}$/;

export class AnyIds {
  private readonly notFound: number;

  constructor(
    private readonly seed: number,
    options: AnyIdsOptions,
  ) {
    this.notFound = Math.min(100, Math.max(0, options.notFoundPercent ?? 10));
  }

  /** Whether a foreign id is answered as not found (stable per seed and id). */
  missing(id: string): boolean {
    return !ID.test(id) || idHash(this.seed, 'missing', id) % 10_000 < this.notFound * 100;
  }

  /** The world's post to draw a foreign id's post from. */
  postSource(id: string, count: number): number {
    return idHash(this.seed, 'post', id) % count;
  }

  userSource(id: string, count: number): number {
    return idHash(this.seed, 'user', id) % count;
  }

  post(id: string, base: SpecPost): SpecPost {
    return {
      ...base,
      id,
      url: base.url.replace(/\d+$/, id),
      conversationId: base.inReplyToId ? base.conversationId : id,
    };
  }

  user(id: string, base: User): User {
    const userName = `${base.userName.slice(0, 8)}_${id.slice(-6)}`;
    return { ...base, id, userName, url: base.url.replace(/[^/]+$/, userName) };
  }
}
