/** A file the smoke test's fake Electron distribution carries beside its executable, so nothing takes it for a real Electron. */
export const FAKE_ELECTRON_MARKER = 'skein-fake-electron.txt';
