/** A list: its posts (newest first) and its followers. */
export { ListView } from './components/ListView';
