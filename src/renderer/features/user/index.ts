/** A profile, by id or by @handle: its header, pinned posts, posts and mentions. */
export { ProfileView } from './components/ProfileView';
