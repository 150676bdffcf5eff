/**
 * Main's requests through Chromium's network stack (Electron's `net.fetch`),
 * which honours the system proxy settings, PAC files and the OS certificate
 * store (TLS inspection), unlike Node's fetch. Electron-free: the composition
 * root passes `net.fetch` in. Its failures (`net::ERR_…` errors) are rethrown
 * shaped like Node's (`TypeError('fetch failed', { cause: { code } })`), so
 * the transport maps them into the one error model as it maps Node's.
 */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

const NET_ERROR = /\bnet::(ERR_[A-Z0-9_]+)/;

/** What a user can do about a Chromium network error, where it is clear. */
function hint(code: string): string {
  if (code.startsWith('ERR_CERT_') || code === 'ERR_SSL_PROTOCOL_ERROR')
    return 'the server certificate was not accepted';
  if (code.startsWith('ERR_PROXY_') || code.startsWith('ERR_TUNNEL_')) return 'the proxy refused or failed';
  if (code === 'ERR_NAME_NOT_RESOLVED') return 'the host name could not be resolved';
  if (code === 'ERR_INTERNET_DISCONNECTED') return 'this computer is offline';
  return '';
}

export function fetchThroughNet(netFetch: FetchLike): FetchLike {
  return async (input, init) => {
    try {
      return await netFetch(input, init);
    } catch (error) {
      // a cancellation stays what it is: the transport reads its own signal
      if (init?.signal?.aborted || (error instanceof Error && error.name === 'AbortError')) throw error;
      const code = error instanceof Error ? NET_ERROR.exec(error.message)?.[1] : undefined;
      if (!code || !(error instanceof Error)) throw error;
      const why = hint(code);
      Object.assign(error, { code: why ? `${code}: ${why}` : code });
      throw new TypeError('fetch failed', { cause: error });
    }
  };
}
