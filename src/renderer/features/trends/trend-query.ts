/**
 * A trend's `query` is percent-encoded (`%23Engines`, `%22big+news%22`).
 * Decode it for people to read, tolerating `+` for spaces and broken escapes
 * (kept as they are rather than failing the whole string).
 */
export function decodeTrendQuery(query: string): string {
  const plus = query.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(plus);
  } catch {
    // Decode each run of valid UTF-8 escapes on its own; leave the broken ones.
    return plus.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}

/** The trend's search URL when it is an https address the system browser may open; else null. */
export function trendSearchUrl(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' ? u.toString() : null;
  } catch {
    return null;
  }
}
