/**
 * Names and handles from data, isolated from the text around them (`<bdi>`),
 * so an RTL override in a display name cannot reorder what follows it; a
 * handle with characters a handle cannot have shows them as codes and is
 * flagged (see lib/handle.ts).
 */
import { viewHandle } from '../lib/handle';

/** a display name; an empty one (the live service's "" for none) reads "no name", never a blank */
export function Name({ text, className }: { text: string; className?: string }) {
  if (text.trim() === '') return <span className={`${className ?? ''} muted`.trim()}>(no name)</span>;
  return <bdi className={className}>{text}</bdi>;
}

/** a handle; an empty one reads "no handle" */
export function Handle({ handle, className }: { handle: string; className?: string }) {
  if (handle === '') return <span className={`${className ?? ''} muted`.trim()}>(no handle)</span>;
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
export const handleText = (handle: string): string => (handle === '' ? '(no handle)' : `@${viewHandle(handle).text}`);
