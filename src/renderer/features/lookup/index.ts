/** Lookup: many posts or accounts by id or handle at once. */
export { LookupView } from './components/LookupView';
