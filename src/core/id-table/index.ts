/** Ids held outside V8's heap, for any area that sees many: an id list's reading, a collection, a view's pages. */
export { IdMap, IdSet } from './id-set';
