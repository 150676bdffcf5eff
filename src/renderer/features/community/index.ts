/** A community: its header, rules and (announced) members and moderators. */
export { CommunityView } from './components/CommunityView';
