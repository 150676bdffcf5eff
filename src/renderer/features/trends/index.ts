/** Trends by place. */
export { TrendsView } from './components/TrendsView';
