/**
 * What a file from elsewhere may be before it is parsed. A REFI-QDA file is a zip of XML that another person
 * made: a zip can claim a few hundred kilobytes and expand to gigabytes, and XML can declare entities that expand
 * a line into billions of characters ("billion laughs") or nest deeper than a parser's stack. Each is refused
 * with its reason, before any parser sees it.
 */
import { unzipSync } from 'fflate';

export const LIMITS = {
  /** the XML read, expanded (a project of 100,000 codings is about 30 MB) */
  xmlBytes: 64 * 1024 * 1024,
  /** expanded ÷ compressed: XML compresses 5–20×; a bomb of zeros about 1,000× */
  ratio: 200,
  /** entries in the zip (Skein writes a handful) */
  entries: 10_000,
  /** elements inside elements (Skein's files nest 6 deep) */
  depth: 200,
};

export class UnsafeFile extends Error {}

/** The one entry `name` of `zip`, within the limits; null when the zip has none of that name. */
export function unzipOne(zip: Uint8Array, name: string): Uint8Array | null {
  let entries = 0;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(zip, {
      filter: (f) => {
        if (++entries > LIMITS.entries) throw new UnsafeFile(`it holds more than ${LIMITS.entries} files`);
        if (f.name !== name) return false;
        if (f.originalSize > LIMITS.xmlBytes)
          throw new UnsafeFile(`its ${name} would expand to ${mb(f.originalSize)}, more than ${mb(LIMITS.xmlBytes)}`);
        if (f.originalSize > Math.max(f.size, 1) * LIMITS.ratio)
          throw new UnsafeFile(
            `its ${name} would expand ${Math.round(f.originalSize / Math.max(f.size, 1))} times (${mb(f.size)} to ${mb(f.originalSize)}), as no real file does`,
          );
        return true;
      },
    });
  } catch (e) {
    if (e instanceof UnsafeFile) throw e;
    throw new Error(`not a zip: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  const file = files[name];
  // a header can understate what its data expands to: what came out is measured too
  if (file && file.length > LIMITS.xmlBytes)
    throw new UnsafeFile(`its ${name} expanded to more than ${mb(LIMITS.xmlBytes)}`);
  return file ?? null;
}

/** Refuses XML that declares anything (entities, above all) or nests deeper than the limit; else returns it. */
export function checkXml(text: string): string {
  if (text.length > LIMITS.xmlBytes) throw new UnsafeFile(`it is larger than ${mb(LIMITS.xmlBytes)}`);
  if (/<!DOCTYPE|<!ENTITY/i.test(text))
    throw new UnsafeFile('it declares a document type or entities, which Skein never reads from a file');
  let depth = 0;
  for (let i = text.indexOf('<'); i >= 0; i = text.indexOf('<', i + 1)) {
    const next = text.charCodeAt(i + 1);
    if (next === 0x2f /* </ */) depth--;
    else if (next === 0x21 /* <! */ || next === 0x3f /* <? */) {
      // a comment, CDATA or instruction: skipped whole, so what it holds does not count
      const end = text.startsWith('<!--', i) ? '-->' : text.startsWith('<![CDATA[', i) ? ']]>' : '>';
      const at = text.indexOf(end, i + 2);
      if (at < 0) break;
      i = at;
    } else {
      const close = text.indexOf('>', i + 1);
      if (close < 0) break;
      if (text.charCodeAt(close - 1) !== 0x2f /* /> */ && ++depth > LIMITS.depth)
        throw new UnsafeFile(`its elements nest more than ${LIMITS.depth} deep`);
      i = close;
    }
  }
  return text;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 2 : 0)} MB`;
