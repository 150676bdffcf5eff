/** Main's save dialog as the export area asks it: the renderer never names a path. */
export interface SaveRequest {
  title?: string;
  /** suggested file name (or full path) */
  defaultPath: string;
  filters?: Array<{ name: string; extensions: string[] }>;
}

/** Asks the user where to save; null when they cancel. The core takes it as `chooseSavePath` (CoreDeps). */
export type ChooseSavePath = (request: SaveRequest) => Promise<string | null>;
