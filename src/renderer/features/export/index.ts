/** The export feature: drop `<ExportButton view={exportView(…)} />` into any view's actions. */
export { ExportButton } from './components/ExportButton';
export { exportView, pagedExportView, type PagedQueryState } from './view-descriptor';
export { isActive, unrecordedNotice } from './form';
export { useExportEstimate, useExportJobs, useFormatOffers } from './queries';
