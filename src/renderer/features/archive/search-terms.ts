/**
 * The archive's search box as the search language reads it (shared/search): the terms a person typed as chips
 * in plain words, each removable (the text rewritten without it), or the reason it cannot be read.
 */
import { parseSearch, type FieldTerm, type SearchNode } from '../../../shared/search/parse';

export interface SearchChip {
  /** the term in plain words, for the chip */
  label: string;
  /** the search text without this term */
  without: string;
}

export type SearchTerms = { ok: true; chips: SearchChip[] } | { ok: false; message: string; position: number };

const COUNTED = { likes: 'likes', reposts: 'reposts', replies: 'replies', quotes: 'quotes' } as const;

function fieldLabel(f: FieldTerm): string {
  switch (f.field) {
    case 'from':
      return `From @${f.handle}`;
    case 'to':
      return `Replying to @${f.handle}`;
    case 'lang':
      return `Language ${f.code}`;
    case 'is':
      return f.is === 'reply' ? 'Replies' : f.is === 'quote' ? 'Quotes' : 'Reposts';
    case 'has':
      return f.has === 'media' ? 'With media' : f.has === 'link' ? 'With a link' : 'With a poll';
    case 'since':
      return `Since ${f.day}`;
    case 'until':
      return `Before ${f.day}`;
    case 'min':
      return `At least ${f.min} ${COUNTED[f.counter]}`;
  }
}

/** a term in plain words (`input`: what was typed, for the words as typed) */
function labelOf(n: SearchNode, input: string, nested = false): string {
  switch (n.type) {
    case 'text': {
      const typed = input.slice(n.span.start, n.span.end);
      return n.quoted ? `“${typed.slice(1, -1)}”` : typed;
    }
    case 'field':
      return fieldLabel(n);
    case 'not':
      return `Without ${labelOf(n.node, input, true)}`;
    default: {
      const inner = n.nodes.map((m) => labelOf(m, input, true)).join(n.type === 'and' ? ' and ' : ' or ');
      return nested ? `(${inner})` : inner;
    }
  }
}

/** The search text read as chips, or why it cannot be read (in plain words, with where). */
export function searchTerms(input: string): SearchTerms {
  const parsed = parseSearch(input);
  if (!parsed.ok) return { ok: false, message: parsed.error.message, position: parsed.error.position };
  const tree = parsed.query;
  if (tree === null) return { ok: true, chips: [] };
  const terms = tree.type === 'and' ? tree.nodes : [tree];
  const typed = terms.map((t) => input.slice(t.span.start, t.span.end));
  return {
    ok: true,
    chips: terms.map((t, i) => ({
      label: labelOf(t, input),
      // the other terms as typed, side by side: AND is implied between them
      without: typed.filter((_, j) => j !== i).join(' '),
    })),
  };
}
