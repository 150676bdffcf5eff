/**
 * Electron glue of the app protocol: `skein://app/…` serves the built
 * renderer through serveAsset (CSP header, traversal refused).
 */
import { protocol, type Session } from 'electron';
import { APP_HOST, APP_SCHEME, serveAsset, type MediaPolicy } from '../../core';

/** Must run before `app` is ready: a standard, secure origin for the renderer. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
  ]);
}

export function handleAppProtocol(
  session: Session,
  rendererRoot: string,
  mediaPolicy?: () => Promise<MediaPolicy>,
): void {
  session.protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return new Response('Not found', { status: 404 });
    }
    const asset = await serveAsset(rendererRoot, url.pathname, mediaPolicy ? await mediaPolicy() : undefined);
    return new Response(request.method === 'HEAD' ? null : asset.body, {
      status: asset.status,
      headers: asset.headers,
    });
  });
}
