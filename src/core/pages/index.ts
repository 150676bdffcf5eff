/**
 * The pages area's face: the pages a collection's posts link to, captured safely as WARC records packaged in a
 * WACZ in the project's pages folder, each URL's outcome recorded in the project's page tables (a part).
 */
export { capturePages, PAGE_LIMITS, type PageRoute, type PagesStore } from './capture';
export { distinctUrls, linksOf, type PageLink } from './links';
export { saveToArchive, type SaveProgress } from './save';
export type { PagesProjectPort } from './handlers';
export { PAGES_PART_NAME } from './tables/part';
export type { PageTables } from './tables/tables';
export { createPagesHandlers } from './handlers';
export { verifyPages } from './verify';
