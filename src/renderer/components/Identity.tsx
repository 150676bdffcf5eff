/**
 * Names and handles from data, isolated from the text around them (`<bdi>`),
 * so an RTL override in a display name cannot reorder what follows it; a
 * handle with characters a handle cannot have shows them as codes and is
 * flagged (see lib/handle.ts).
 */
import { viewHandle } from '../lib/handle';

export function Name({ text, className }: { text: string; className?: string }) {
  return <bdi className={className}>{text}</bdi>;
}

export function Handle({ handle, className }: { handle: string; className?: string }) {
  const v = viewHandle(handle);
  return (
    <bdi className={className} dir="ltr">
      @{v.text}
      {v.suspicious ? (
        <span
          className="handle-flag"
          role="img"
          aria-label="Unusual handle"
          title="This handle has characters a real handle cannot have (shown as codes): it may imitate another account."
        >
          {' '}
          ⚠
        </span>
      ) : null}
    </bdi>
  );
}

/** the handle for labels and titles (text only): codes instead of hidden characters */
export const handleText = (handle: string): string => `@${viewHandle(handle).text}`;
