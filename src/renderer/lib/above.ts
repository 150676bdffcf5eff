/**
 * Calls `onChange` whenever what is above `target` inside the scroller `root` changes: an element before it (at
 * any level up to `root`) changes size, or one is added or removed there. Nothing the target holds is watched, so a
 * list that grows below does not call it. Returns the disconnect.
 *
 * The view's first child is not where its content is (ViewContainer puts the column's side lines first), so
 * watching that alone missed a pinned post or a banner loading above a list.
 */
export function observeAbove(root: HTMLElement, target: HTMLElement, onChange: () => void): () => void {
  const sizes = new ResizeObserver(onChange);
  const watchSizes = () => {
    sizes.disconnect();
    for (let el: HTMLElement | null = target; el && el !== root; el = el.parentElement)
      for (let above = el.previousElementSibling; above; above = above.previousElementSibling) sizes.observe(above);
  };
  // an element added or removed beside any level: watch what is above now, and say that it moved
  const children = new MutationObserver(() => {
    watchSizes();
    onChange();
  });
  for (let el = target.parentElement; el && el !== root.parentElement; el = el.parentElement)
    children.observe(el, { childList: true });
  watchSizes();
  return () => {
    sizes.disconnect();
    children.disconnect();
  };
}
