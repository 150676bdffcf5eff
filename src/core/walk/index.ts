/**
 * The page walk's public surface: the walk itself (`walkPages`), the `PageSource` port it reads pages
 * through, and the journal that keeps every page and failure so a walk resumes without buying a page twice.
 */
export { type Budget } from './caps';
export {
  committedItems,
  Journal,
  type CommittedPart,
  type FailedFetch,
  type JournalItem,
  type PageRecord,
} from './journal';
export { PageLog, type PageList } from './page-log';
export { receivedText, type PageRequest, type PageSource, type SourcePage } from './page-source';
export { pageRecord, walkPages, type Kept, type WalkStep } from './walk';
