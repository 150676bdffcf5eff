/**
 * A confirmation the renderer cannot forge: main asks the user directly (a
 * native dialog in the Electron shell, a test double in the e2e host and in
 * unit tests). Everything that could leak the key or raise spending goes
 * through it: moving the key to another origin, raising the pace ceiling or
 * the hourly credit budget, resuming an export with looser caps, and keeping
 * the key on disk without a keyring. A page that calls the bridge can ask,
 * but only the person at the screen can answer yes.
 */
export interface ConfirmRequest {
  /** a short question, e.g. "Send your API key to https://api.example.com?" */
  title: string;
  /** what saying yes does, in plain words */
  detail: string;
  /** the label of the button that says yes (the other one cancels) */
  confirmLabel: string;
}

/** Resolves true only when the user said yes. */
export type Confirm = (request: ConfirmRequest) => Promise<boolean>;

/** The safe default where no one can be asked: every request is refused. */
export const refuseAll: Confirm = async () => false;
