/** The archive: the project's own items searched offline, the project's status in the shell, its collections. */
export { ArchiveView } from './components/ArchiveView';
export { ProjectStatus } from './components/ProjectStatus';
export { collectionsQuery, projectsQuery } from './queries';
