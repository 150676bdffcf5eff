/**
 * Writing text to the clipboard, and nothing else: the Electron window allows only
 * `clipboard-sanitized-write` for Skein's own origin (never reading), the browser shell's page
 * is a secure context (loopback) where a click may write.
 */

/** Longest text Skein ever copies (ids, links, a view's script): anything longer is refused rather than cut. */
const MAX_COPY_LENGTH = 16_384;

/** True when the text is on the clipboard. */
export async function copyText(text: string): Promise<boolean> {
  if (text.length === 0 || text.length > MAX_COPY_LENGTH) return false;
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
