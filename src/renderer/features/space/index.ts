/** An audio space, polled while live once the user has seen what that costs. */
export { SpaceView } from './components/SpaceView';
