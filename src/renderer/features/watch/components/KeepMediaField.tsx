/** "Keep the media of new posts after each run": off unless ticked; files are fetched once, whatever the runs. */
export function KeepMediaField({ checked, onChange }: { checked: boolean; onChange: (keep: boolean) => void }) {
  return (
    <label className="field watch-form__check">
      <span>
        <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} /> Keep the media of new
        posts after each run
      </span>
      <small className="muted">
        Photos at their original size, videos as their best MP4 (or the largest Settings allows), each file once. No
        credits; a failure never stops the watch.
      </small>
    </label>
  );
}
