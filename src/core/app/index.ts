/** The app area's public surface: the `app` and `demo` handlers, the one way out to the browser, the menu. */
export { createAppHandlers } from './handlers';
export { menuTemplate, type MenuItem } from './menu';
