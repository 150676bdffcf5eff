/** A core's handler called as the renderer calls it: through the bridge's dispatcher, its input and reply checked. */
import type { Core } from '..';
import { createDispatcher } from '../bridge/dispatch';

const ctx = { senderId: 1 };

/** The reply's data; a refusal or failure thrown as an error naming the channel and saying the message. */
export async function call<T>(core: Core, channel: string, input?: unknown): Promise<T> {
  const res = await createDispatcher(core.handlers).dispatch(channel, input, ctx);
  if (!res.ok) throw new Error(`${channel}: ${res.error.message}`);
  return res.data as T;
}
