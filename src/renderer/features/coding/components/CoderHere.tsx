/**
 * Who codes at this computer: a person, kept by main per project. The first choice is made in place; coding
 * as someone else afterwards is an explicit switch, confirmed in a dialog and recorded in the project. The
 * page's selection follows what main says.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import type { Coder } from '../../../../shared/coding/records';
import { coderHereQuery, codersQuery, useSetCoderHere } from '../queries';
import { useCodingSelection } from '../selection';
import { Problem } from './parts';

/** Keeps the page's coder the one main remembers for this computer. */
export function useCoderHere() {
  const here = useQuery(coderHereQuery());
  const { coder, chooseCoder } = useCodingSelection();
  const remembered = here.data?.coder;
  useEffect(() => {
    if (remembered !== undefined && remembered !== coder) chooseCoder(remembered);
  }, [remembered, coder, chooseCoder]);
  return here;
}

const people = (coders: readonly Coder[] | undefined) => coders?.filter((c) => c.kind === 'person') ?? [];

/** “Coding as”: a first choice in place, then the person's name and “Switch coder…”. */
export function CodingAs() {
  const here = useCoderHere();
  const coders = useQuery(codersQuery());
  const set = useSetCoderHere();
  const id = useId();
  if (!here.data) return null;
  const me = people(coders.data).find((c) => c.id === here.data.coder);
  if (!me)
    return (
      <label className="coding-selector" htmlFor={id}>
        <span>Coding as</span>
        <select
          id={id}
          className="select"
          value=""
          onChange={(e) => {
            if (e.target.value) set.mutate(Number(e.target.value));
          }}
        >
          <option value="">{people(coders.data).length ? 'choose who you are' : 'add a coder first'}</option>
          {people(coders.data).map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
        <Problem error={set.error} />
      </label>
    );
  return (
    <div className="coding-selector">
      <span>Coding as</span>
      <strong className="coding-selector__me" data-testid="coding-as">
        {me.name}
      </strong>
      <SwitchCoder label="Switch coder…" />
    </div>
  );
}

/** A button and its confirmation: the person at this computer codes as someone else from now on. */
export function SwitchCoder({ label, to }: { label: string; to?: number }) {
  const coders = useQuery(codersQuery());
  const here = useQuery(coderHereQuery());
  const set = useSetCoderHere();
  const [open, setOpen] = useState(false);
  const [target, setTarget] = useState<number | null>(to ?? null);
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const selectId = useId();
  const others = people(coders.data).filter((c) => c.id !== here.data?.coder);
  const current = people(coders.data).find((c) => c.id === here.data?.coder);
  const chosen = others.find((c) => c.id === target) ?? (to === undefined ? others[0] : undefined);
  useEffect(() => {
    const d = dialog.current;
    if (open && d && !d.open) d.showModal();
    if (!open && d?.open) d.close();
  }, [open]);
  if (others.length === 0) return null;
  return (
    <>
      <button
        type="button"
        className="btn btn--small"
        onClick={() => {
          set.reset();
          setTarget(to ?? null);
          setOpen(true);
        }}
      >
        {label}
      </button>
      {open ? (
        <dialog
          ref={dialog}
          className="coding-switch"
          aria-labelledby={titleId}
          onCancel={(e) => {
            e.preventDefault();
            setOpen(false);
          }}
        >
          <h2 id={titleId}>Code as someone else?</h2>
          <p>
            {current ? `${current.name} is coding at this computer. ` : ''}Values you enter from now on are kept as the
            new coder’s; the switch is recorded in the project, with when and from whom.
          </p>
          {to === undefined ? (
            <label className="field" htmlFor={selectId}>
              <span>Code as</span>
              <select
                id={selectId}
                className="select"
                value={chosen?.id ?? ''}
                onChange={(e) => setTarget(Number(e.target.value))}
              >
                {others.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <Problem error={set.error} />
          <div className="coding-switch__buttons">
            <button type="button" className="btn" autoFocus onClick={() => setOpen(false)}>
              Cancel
            </button>
            <button
              type="button"
              className="btn btn--primary"
              disabled={!chosen || set.isPending}
              onClick={() => chosen && set.mutate(chosen.id, { onSuccess: () => setOpen(false) })}
            >
              {chosen ? `Switch to ${chosen.name}` : 'Switch'}
            </button>
          </div>
        </dialog>
      ) : null}
    </>
  );
}
