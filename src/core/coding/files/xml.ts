/**
 * XML text as the REFI-QDA files need it: characters XML 1.0 cannot hold (controls, lone surrogates, U+FFFE/F —
 * a hostile post may carry any of them) dropped, markup escaped; and stable GUIDs, so two exports of the same
 * coding name its codes, coders and sources alike (a diff shows what changed).
 */
import { createHash } from 'node:crypto';

/* eslint-disable no-control-regex -- exactly the characters XML 1.0 forbids */
const NOT_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/* eslint-enable no-control-regex */

/** Text XML 1.0 can hold: the characters it forbids dropped. */
function xmlSafe(text: string): string {
  return text.replace(NOT_XML, '');
}

/** Element text. */
export function xmlText(text: string): string {
  return xmlSafe(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An attribute's value (double-quoted); line breaks kept as character references. */
export function xmlAttr(text: string): string {
  return xmlText(text).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

/** A name-based GUID (RFC 4122 version 5 layout over SHA-1): the same name, the same GUID. */
export function guidOf(...parts: string[]): string {
  const h = createHash('sha1')
    .update(`skein\u0000${parts.join('\u0000')}`)
    .digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** `2026-11-23T19:54:00Z`: xsd:dateTime, UTC, to the second. */
export function xmlDateTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Length in code points (REFI-QDA positions count characters, not UTF-16 units). */
export function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
