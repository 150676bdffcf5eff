/**
 * Handles as the service makes them: `[A-Za-z0-9_]` only. Anything else in a
 * handle that reached us (an RTL override, a zero-width space, a control
 * character, a look-alike letter) is spoofing or breakage: it is shown as a
 * visible code (`⟨U+202E⟩`) and the handle is flagged.
 */
const HANDLE_CHAR = /^[A-Za-z0-9_]$/;

export interface HandleView {
  /** the handle with every character a handle cannot have made visible */
  text: string;
  /** true when the handle had any such character */
  suspicious: boolean;
}

export function viewHandle(handle: string): HandleView {
  let suspicious = false;
  let text = '';
  for (const ch of handle) {
    if (HANDLE_CHAR.test(ch)) text += ch;
    else {
      suspicious = true;
      text += `⟨U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}⟩`;
    }
  }
  return { text, suspicious };
}
