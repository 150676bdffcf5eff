/** Usage: what this session (and all sessions) cost, by operation and call by call. */
export { UsageView } from './components/UsageView';
