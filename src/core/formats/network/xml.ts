/**
 * Text as XML 1.0 attribute values and character data, for the network files (GEXF, GraphML): markup
 * characters as entities, characters XML forbids (controls, lone surrogates, U+FFFE/FFFF) replaced by U+FFFD,
 * and line breaks and tabs as character references so parsers keep them in attributes.
 */
const FORBIDDEN =
  // eslint-disable-next-line no-control-regex -- the characters XML 1.0 forbids are what this removes
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const SPECIAL = /[&<>"'\t\n\r]/g;
const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/** A string as an XML 1.0 attribute value (or text): always well-formed, whatever it held. */
export function xmlEscape(value: string): string {
  return value.replace(FORBIDDEN, '\uFFFD').replace(SPECIAL, (c) => ENTITIES[c] ?? c);
}
