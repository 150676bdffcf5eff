/**
 * What a person reads on screen is words, never the data's own names: no JSON key (`created_at`, `likeCount`) or
 * table name (`watch_runs`) in the text of any component, nor in the attributes a person reads or hears (a label,
 * a title, a placeholder). Read from the components' syntax trees, so a class name or a key in code is not text.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = dirname(fileURLToPath(import.meta.url));
/** attributes whose value a person reads or hears */
const SPOKEN = new Set(['aria-label', 'aria-description', 'title', 'placeholder', 'alt', 'label']);
/** snake_case (a JSON key, a table or column name) or camelCase (a JSON key) */
const CODE_NAME = /\b[a-z]+_[a-z0-9_]+\b|\b[a-z]+[A-Z][a-zA-Z]*\b/g;

function components(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return components(p);
    return p.endsWith('.tsx') && !p.includes('.test.') ? [p] : [];
  });
}

/** the text of a literal, or of a template's fixed parts */
function literalText(n: ts.Node): string | null {
  if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) return n.text;
  if (ts.isTemplateExpression(n)) return [n.head.text, ...n.templateSpans.map((s) => s.literal.text)].join(' ');
  return null;
}

/** the names of code found in what a component shows or says */
function codeNamesShown(source: string, file = 'component.tsx'): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const check = (text: string | null) => {
    if (text) found.push(...(text.match(CODE_NAME) ?? []));
  };
  const visit = (n: ts.Node): void => {
    if (ts.isJsxText(n)) check(n.text);
    else if (ts.isJsxExpression(n) && n.expression && !ts.isJsxAttribute(n.parent)) {
      // a child expression: its literal branches are text (`{a ? 'x' : 'y'}`)
      const e = n.expression;
      if (ts.isConditionalExpression(e)) [e.whenTrue, e.whenFalse].forEach((b) => check(literalText(b)));
      else check(literalText(e));
    } else if (ts.isJsxAttribute(n) && SPOKEN.has(n.name.getText(sf)) && n.initializer) {
      const init = n.initializer;
      if (ts.isStringLiteral(init)) check(init.text);
      else if (ts.isJsxExpression(init) && init.expression) check(literalText(init.expression));
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

describe('what the screen says', () => {
  it('finds a code name in text, a spoken attribute and a literal branch, and not in a class name', () => {
    expect(codeNamesShown('const A = () => <p>Sorted by created_at</p>;')).toEqual(['created_at']);
    expect(codeNamesShown('const A = () => <input placeholder="likeCount" />;')).toEqual(['likeCount']);
    expect(codeNamesShown("const A = (x: boolean) => <p>{x ? 'watch_runs' : 'none'}</p>;")).toEqual(['watch_runs']);
    expect(codeNamesShown('const A = () => <p className="post__text card_x">Words only</p>;')).toEqual([]);
  });

  it('no component shows a JSON key or a table name', () => {
    const shown = components(ROOT).flatMap((f) =>
      codeNamesShown(readFileSync(f, 'utf8'), f).map((name) => `${relative(ROOT, f)}: ${name}`),
    );
    expect(shown).toEqual([]);
  });
});
