/** Hydration: a shared id list read back into posts or accounts, in the background, with what did not come back. */
export { HydrateView } from './components/HydrateView';
