/** Files made to hurt a reader, for the tests of whatever reads a file another person made. */

/** the classic entity trick: ten levels of ten, a billion "lol"s from a few hundred bytes */
export function billionLaughs(root: string): string {
  const levels = ['<!ENTITY lol0 "lol">'];
  for (let i = 1; i <= 9; i++) levels.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`);
  return `<?xml version="1.0"?>\n<!DOCTYPE lolz [\n${levels.join('\n')}\n]>\n${root}`;
}
