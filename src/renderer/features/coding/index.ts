/** The coding workbench, and the coding panel docked below any view that shows posts. */
export { CodingPanel } from './components/CodingPanel';
export { CodingView } from './components/CodingView';
