/** Settings: connection, API key, price table, cache. */
export { SettingsView } from './components/SettingsView';
