/** The bridge's main side, free of Electron: handle() (sender check, input and output schemas, envelope). */
export {
  createDispatcher,
  guarded,
  isTrustedFrame,
  originOf,
  type DispatcherOptions,
  type FrameLike,
} from './dispatch';
