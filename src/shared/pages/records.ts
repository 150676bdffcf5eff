/**
 * A linked page's record, as the pages area keeps it in a project and as media's evidence package reads it
 * (through its `LinkedPages` port): written once here so neither area restates the other's row.
 */

/** What a web archive's save service answered for a URL. */
export interface SaveRecord {
  state: 'saved' | 'failed';
  at: number;
  /** the save service's address the URL was appended to */
  service: string;
  status: number | null;
  /** the capture's address (absolute), or null when there is none */
  captureUrl: string | null;
  /** refused, rate-limited, timed-out, failed: with `message`, when there is no capture */
  reason: string | null;
  message: string | null;
}

/** A linked URL's outcome: captured (its payload's hash, where it led, its WACZ) or the reason it was not. */
export interface PageRecord {
  url: string;
  state: 'captured' | 'failed';
  at: number;
  status: number | null;
  size: number | null;
  mime: string | null;
  sha256: string | null;
  finalUrl: string | null;
  /** the WACZ's file name in the project's pages folder */
  wacz: string | null;
  /** gone, refused, too-large, timed-out, wrong-type, failed: with `message`, when it failed */
  reason: string | null;
  message: string | null;
  /** its answer from a web archive's save service, when it was sent to one */
  save?: SaveRecord | null;
}
