/** Watchlists: the watches, an item's counters over time, and the watches' tables for the archive. */
export { CountersView } from './components/CountersView';
export { TableExports } from './components/TableExports';
export { WatchesView } from './components/WatchesView';
export { watchListQuery } from './queries';
