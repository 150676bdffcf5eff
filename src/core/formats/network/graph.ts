/**
 * A network from a collection (for Gephi, networkx, igraph): users (and spaces, lists) as nodes, interactions
 * as directed edges of a kind, aggregated by (source, target, kind) with a weight (how many times) and the
 * times they happened (for a dynamic graph). Posts give `reply` (author → the user answered), `quote` (→ the
 * quoted post's author), `retweet` (→ the original's author), `mention` (→ each user mentioned; mentions
 * inside a retweeted or quoted post are `mention-in-retweet` / `mention-in-quote`, NodeXL's kinds); space
 * participants give `admin`/`speaker`/`listener` edges to the space; a list's followers a `list-follower` edge
 * to the list, and the authors of a list's timeline (its members: the timeline is their posts) a `list-member`
 * edge. Memory grows with nodes and edges, never with items: items are added one by one.
 */
import { arr, isoFromCreatedAt, nonEmpty, num, obj, str, type Obj } from '../item-fields';

export type EdgeKind =
  | 'reply'
  | 'quote'
  | 'retweet'
  | 'mention'
  | 'mention-in-retweet'
  | 'mention-in-quote'
  | 'admin'
  | 'speaker'
  | 'listener'
  | 'list-follower'
  | 'list-member';

export type NodeType = 'user' | 'space' | 'list';

export interface GraphNode {
  id: string;
  type: NodeType;
  handle: string | null;
  name: string | null;
  followers: number | null;
  /** the earliest time the node appears in the collection (a post's creation time; else its collection time) */
  firstSeen: string | null;
  /** every time it appears (ISO, UTC): the dynamic graph's timestamps */
  times: Set<string>;
}

export interface GraphEdge {
  source: string;
  target: string;
  kind: EdgeKind;
  weight: number;
  times: Set<string>;
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

export class NetworkBuilder {
  readonly nodes = new Map<string, GraphNode>();
  readonly edges = new Map<string, GraphEdge>();
  /** post id → author id, for replies that name only the post they answer (the spec's `inReplyToId`) */
  private readonly authors = new Map<string, string>();
  private pending: Array<{ author: string; parent: string; at: string | null }> = [];

  /** A node, created or completed: facts already known are kept (the first one seen wins). */
  private node(
    id: string,
    type: NodeType,
    facts: Partial<Omit<GraphNode, 'id' | 'type' | 'times'>>,
    at: string | null,
  ) {
    let n = this.nodes.get(id);
    if (!n) {
      n = { id, type, handle: null, name: null, followers: null, firstSeen: null, times: new Set() };
      this.nodes.set(id, n);
    }
    n.handle ??= facts.handle ?? null;
    n.name ??= facts.name ?? null;
    n.followers ??= facts.followers ?? null;
    if (at) {
      n.times.add(at);
      if (n.firstSeen === null || at < n.firstSeen) n.firstSeen = at;
    }
    return n;
  }

  private edge(source: string, target: string, kind: EdgeKind, at: string | null): void {
    const key = `${source}\u0000${target}\u0000${kind}`;
    let e = this.edges.get(key);
    if (!e) {
      e = { source, target, kind, weight: 0, times: new Set() };
      this.edges.set(key, e);
    }
    e.weight++;
    if (at) e.times.add(at);
  }

  private user(u: Obj | null, at: string | null): string | null {
    const id = nonEmpty(u?.id) ?? nonEmpty(u?.rest_id);
    if (!id || !ID.test(id)) return null;
    this.node(
      id,
      'user',
      {
        handle: str(u?.userName) ?? str(u?.screen_name),
        name: str(u?.name),
        followers: num(u?.followers),
      },
      at,
    );
    return id;
  }

  private mentions(author: string, post: Obj | null, kind: EdgeKind, at: string | null): void {
    for (const m of arr(obj(post?.entities)?.user_mentions)) {
      const target = this.user(
        { id: obj(m)?.id_str ?? obj(m)?.id, userName: obj(m)?.screen_name, name: obj(m)?.name },
        at,
      );
      if (target) this.edge(author, target, kind, at);
    }
  }

  /** A list node, and an edge of this kind from the user to it. */
  private toList(user: string, listId: string | null, kind: 'list-follower' | 'list-member', at: string | null) {
    if (!listId || !ID.test(listId)) return;
    this.node(listId, 'list', { name: `list ${listId}` }, at);
    this.edge(user, listId, kind, at);
  }

  /**
   * A post: its author and the users it answers, quotes, retweets and mentions; with `listId` (a list's
   * timeline), its author is a member of that list.
   */
  addPost(raw: unknown, collectedAt: string | null = null, listId: string | null = null): void {
    const p = obj(raw);
    if (!p) return;
    const at = isoFromCreatedAt(p.createdAt) ?? collectedAt;
    const author = this.user(obj(p.author), at);
    if (!author) return;
    this.toList(author, listId, 'list-member', collectedAt ?? at);
    const id = nonEmpty(p.id);
    if (id) this.authors.set(id, author);
    const parent = nonEmpty(p.inReplyToId);
    // a reply answers a post: one that merely starts with @mentions carries inReplyToUserId too, with
    // isReply false and no inReplyToId (api-field-notes.md, "Round 2"); its mentions are mention edges
    const replyTo = parent !== null || p.isReply === true ? nonEmpty(p.inReplyToUserId) : null;
    if (replyTo) {
      const target = this.user({ id: replyTo, userName: p.inReplyToUsername }, at);
      if (target) this.edge(author, target, 'reply', at);
    } else if (parent) {
      // the answered user is the parent post's author, when the parent is in the collection (now or later)
      this.pending.push({ author, parent, at });
    }
    const quoted = obj(p.quoted_tweet);
    if (quoted) {
      const target = this.user(obj(quoted.author), at);
      if (target) this.edge(author, target, 'quote', at);
      this.mentions(author, quoted, 'mention-in-quote', at);
    }
    const retweet = obj(p.retweeted_tweet);
    if (retweet) {
      const target = this.user(obj(retweet.author), at);
      if (target) this.edge(author, target, 'retweet', at);
      this.mentions(author, retweet, 'mention-in-retweet', at);
    } else this.mentions(author, p, 'mention', at);
  }

  /** Posts that replies answer and the collection does not hold: their authors can be looked up elsewhere. */
  unknownParents(): string[] {
    return [...new Set(this.pending.filter((p) => !this.authors.has(p.parent)).map((p) => p.parent))];
  }

  /** A post from outside the collection (the project holds it): whose it is, so replies to it get their edge. */
  knowPost(raw: unknown): void {
    const p = obj(raw);
    const id = nonEmpty(p?.id);
    const author = id ? this.user(obj(p?.author), null) : null;
    if (id && author && !this.authors.has(id)) this.authors.set(id, author);
  }

  /** Resolves replies whose parent post came later; call once every item is added. */
  finish(): this {
    for (const { author, parent, at } of this.pending) {
      const target = this.authors.get(parent);
      if (target) {
        this.node(target, 'user', {}, at);
        this.edge(author, target, 'reply', at);
      }
    }
    this.pending = [];
    return this;
  }

  /** A user (a profile or a lookup); with `listId`, a follower of that list. */
  addUser(raw: unknown, collectedAt: string | null = null, listId: string | null = null): void {
    const id = this.user(obj(raw), collectedAt);
    if (id) this.toList(id, listId, 'list-follower', collectedAt);
  }

  /** A space's participants, each with an edge of their role to the space. */
  addSpaceParticipants(
    spaceId: string,
    title: string | null,
    participants: ReadonlyArray<{
      id: string;
      role: 'admin' | 'speaker' | 'listener';
      handle: string | null;
      name: string | null;
      followers: number | null;
    }>,
    collectedAt: string | null,
  ): void {
    if (!ID.test(spaceId)) return;
    this.node(spaceId, 'space', { name: title }, collectedAt);
    for (const p of participants) {
      const id = this.user({ id: p.id, userName: p.handle, name: p.name, followers: p.followers }, collectedAt);
      if (id) this.edge(id, spaceId, p.role, collectedAt);
    }
  }
}
