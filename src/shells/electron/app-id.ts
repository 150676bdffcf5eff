/**
 * The installer's app id (electron-builder.yml `appId`, checked by
 * packaging.test.ts). On Windows it is also the AppUserModelId: without it,
 * notifications and taskbar pinning do not reach the installed app.
 */
export const APP_ID = 'app.skein.desktop';
