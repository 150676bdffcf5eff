import { useEffect, useState } from 'react';
import type { ViewDescriptor } from '../../../../shared/ipc/export';
import { EXPORT_EVENT } from '../../../lib/keyboard';
import { ExportDialog } from './ExportDialog';

/**
 * "Export…" for any view: drop it into the view's actions with the view's
 * descriptor (see `exportView`). The menu command (Ctrl/Cmd+E) opens it too.
 * `view` null: the view has nothing to export yet (disabled).
 */
export function ExportButton({ view, label = 'Export…' }: { view: ViewDescriptor | null; label?: string }) {
  const [open, setOpen] = useState(false);

  // the menu's Export opens the dialog whenever there is something to export; the dialog reads the
  // view as it is then (a new descriptor comes with every page: not a reason to listen again)
  const available = view !== null;
  useEffect(() => {
    if (!available) return;
    const onMenu = () => setOpen(true);
    window.addEventListener(EXPORT_EVENT, onMenu);
    return () => window.removeEventListener(EXPORT_EVENT, onMenu);
  }, [available]);

  return (
    <>
      <button
        type="button"
        className="btn btn--small"
        disabled={!view}
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        title="Export this view (Ctrl/Cmd+E)"
      >
        {label}
      </button>
      {open && view ? <ExportDialog view={view} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
