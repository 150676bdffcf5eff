/**
 * Calls in flight, by the id the renderer chose (an AbortSignal cannot cross
 * the bridge) and by the window that started them, so a window can cancel
 * its own calls, and all of them end when it closes or reloads. A window can
 * never cancel another window's call.
 */
class CancelledByUser extends Error {
  constructor(message = 'The call was cancelled.') {
    super(message);
    this.name = 'CancelledByUser';
  }
}

interface Running {
  controller: AbortController;
  senderId: number | undefined;
}

export class CallRegistry {
  private readonly byKey = new Map<string, Set<Running>>();

  private static key(callId: string, senderId: number | undefined): string {
    return `${senderId ?? 'main'}\u0000${callId}`;
  }

  get size(): number {
    let n = 0;
    for (const set of this.byKey.values()) n += set.size;
    return n;
  }

  /** Register a call; `done()` must be called when it ends, however it ends. */
  start(callId: string, senderId?: number, parent?: AbortSignal): { signal: AbortSignal; done: () => void } {
    const key = CallRegistry.key(callId, senderId);
    const running: Running = { controller: new AbortController(), senderId };
    let set = this.byKey.get(key);
    if (!set) this.byKey.set(key, (set = new Set()));
    set.add(running);
    const onParent = () => running.controller.abort(parent?.reason);
    if (parent?.aborted) onParent();
    else parent?.addEventListener('abort', onParent, { once: true });
    return {
      signal: running.controller.signal,
      done: () => {
        parent?.removeEventListener('abort', onParent);
        set.delete(running);
        if (set.size === 0 && this.byKey.get(key) === set) this.byKey.delete(key);
      },
    };
  }

  cancel(callId: string, senderId?: number): boolean {
    const set = this.byKey.get(CallRegistry.key(callId, senderId));
    if (!set || set.size === 0) return false;
    for (const r of set) r.controller.abort(new CancelledByUser());
    return true;
  }

  /** Cancel every call a window started; returns how many. */
  cancelSender(senderId: number, why = 'The window that asked for this call closed or reloaded.'): number {
    let n = 0;
    for (const set of this.byKey.values()) {
      for (const r of set) {
        if (r.senderId !== senderId || r.controller.signal.aborted) continue;
        r.controller.abort(new CancelledByUser(why));
        n++;
      }
    }
    return n;
  }
}
