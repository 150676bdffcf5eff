/**
 * Handlers of the `app` and `demo` namespaces: who Skein is, the one
 * allowlisted way out to the system browser, and the demo sandbox's showcase.
 */
import { ExternalUrl, linkVerdict, type AppInfo, type DemoExamples, type Handlers, type Mode } from '../../shared/ipc';
import { refuseAll, type AppIdentity, type Confirm } from '../ports';

export interface AppHandlerDeps {
  identity: AppIdentity;
  /** the mode Skein runs in right now (settings may change it) */
  mode: () => Mode | Promise<Mode>;
  /** hands a URL to the OS; only ever called with an http(s) URL */
  openExternal: (url: string) => Promise<void>;
  /** the demo sandbox's showcase, starting the sandbox if needed; null in live mode */
  demoExamples: () => Promise<DemoExamples | null>;
  /** main's own dialog: an http: link opens only after the user says yes (absent: refused) */
  confirm?: Confirm;
}

/**
 * The one function in main that lets a URL leave Skein: `https:` opens,
 * `http:` only after the user's yes in main's dialog, nothing with a user
 * name or password, checked again here whatever the caller already checked.
 */
export async function openExternalSafely(
  url: string,
  open: (url: string) => Promise<void>,
  confirm: Confirm = refuseAll,
): Promise<{ opened: boolean; refused?: string }> {
  const verdict = ExternalUrl.safeParse(url).success ? linkVerdict(url) : 'refused';
  if (verdict === 'refused')
    return { opened: false, refused: 'Skein opens only https: links without a user name or password.' };
  const target = new URL(url);
  if (verdict === 'http') {
    const yes = await confirm({
      title: `Open an unencrypted link to ${target.host}?`,
      detail: `${target.toString()}\n\nThis is an http: link: anyone on the network can see and change what you load.`,
      confirmLabel: 'Open',
    });
    if (!yes) return { opened: false, refused: 'Not opened: an unencrypted http: link you did not confirm.' };
  }
  await open(target.toString());
  return { opened: true };
}

export function createAppHandlers(deps: AppHandlerDeps): Pick<Handlers, 'app' | 'demo'> {
  return {
    app: {
      info: async (): Promise<AppInfo> => ({ ...deps.identity, mode: await deps.mode() }),
      openExternal: ({ url }) => openExternalSafely(url, deps.openExternal, deps.confirm),
    },
    demo: {
      examples: async () => ((await deps.mode()) === 'demo' ? deps.demoExamples() : null),
    },
  };
}
