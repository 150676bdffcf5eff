/** Home: in demo mode, guided starting points through everything the app shows. */
export { HomeView } from './components/HomeView';
