/** The app protocol's public surface: the renderer's files served with the CSP, for both shells. */
export {
  APP_ENTRY_URL,
  APP_HOST,
  APP_ORIGIN,
  APP_SCHEME,
  SECURITY_HEADERS,
  serveAsset,
  type MediaPolicy,
} from './assets';
