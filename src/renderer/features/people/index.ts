/** People search. */
export { PeopleSearchView } from './components/PeopleSearchView';
