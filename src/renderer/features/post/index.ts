/** A post and its replies and quotes. */
export { PostView } from './components/PostView';
