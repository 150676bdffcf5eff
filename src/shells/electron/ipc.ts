/**
 * The only file that touches `ipcMain`: one `handle()` per contract function,
 * each going through the sender check and the dispatcher (see dispatch.ts).
 */
import { ipcMain, type WebContents } from 'electron';
import { eventChannelName, events, type EventName, type EventPayload, type Handlers } from '../../shared/ipc';
import { createDispatcher, guarded, type DispatcherOptions, type FrameLike } from '../../core';

/** Registers every bridge function; returns a function that removes them again. */
export function registerIpc(
  handlers: Handlers,
  isTrustedSender: (frame: FrameLike | null | undefined) => boolean,
  options: DispatcherOptions = {},
): () => void {
  const dispatcher = createDispatcher(handlers, options);
  const handle = guarded(dispatcher, isTrustedSender);
  for (const channel of dispatcher.channels) {
    ipcMain.handle(channel, (event, input: unknown) =>
      handle(channel, event.senderFrame, input, { senderId: event.sender.id }),
    );
  }
  return () => {
    for (const channel of dispatcher.channels) ipcMain.removeHandler(channel);
  };
}

/** Pushes a contract event to one window; the payload is checked against the contract first. */
export function sendEvent<E extends EventName>(target: WebContents, name: E, payload: EventPayload<E>): void {
  const data = events[name].parse(payload);
  if (!target.isDestroyed()) target.send(eventChannelName(name), data);
}
