/**
 * Handlers of the `app` and `demo` namespaces: who Skein is, the one
 * allowlisted way out to the system browser, and the demo sandbox's showcase.
 */
import { ExternalUrl, type AppInfo, type DemoExamples, type Handlers, type Mode } from '../../../shared/ipc';

export interface AppIdentity {
  name: string;
  version: string;
  platform: string;
}

export interface AppHandlerDeps {
  identity: AppIdentity;
  /** the mode Skein runs in right now (settings may change it) */
  mode(): Mode | Promise<Mode>;
  /** hands a URL to the OS; only ever called with an http(s) URL */
  openExternal(url: string): Promise<void>;
  /** the demo sandbox's showcase, starting the sandbox if needed; null in live mode */
  demoExamples(): Promise<DemoExamples | null>;
}

/**
 * The one function in main that lets a URL leave Skein: `https:` and `http:`
 * only, checked again here whatever the caller already checked.
 */
export async function openExternalSafely(url: string, open: (url: string) => Promise<void>): Promise<boolean> {
  if (!ExternalUrl.safeParse(url).success) return false;
  await open(new URL(url).toString());
  return true;
}

export function createAppHandlers(deps: AppHandlerDeps): Pick<Handlers, 'app' | 'demo'> {
  return {
    app: {
      info: async (): Promise<AppInfo> => ({ ...deps.identity, mode: await deps.mode() }),
      openExternal: async ({ url }) => ({ opened: await openExternalSafely(url, deps.openExternal) }),
    },
    demo: {
      examples: async () => ((await deps.mode()) === 'demo' ? deps.demoExamples() : null),
    },
  };
}
